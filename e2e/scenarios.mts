// The example workflows and the agent checks in a real n8n: four tracks side by side in one n8n
// user folder, each with its own sandbox (e2e/scenarios/; what each checks: e2e/README.md, "Scenarios").
// --scheduler: check d alone on n8n 2.x's database-backed poll scheduler. Exit 1 on any failure.
//
//   [AIRSIGN_E2E_N8N=1|2] npx tsx e2e/scenarios.mts [--keep] [--tarball <file.tgz>]
//        [--tracks headless,live,events,agent] [--scheduler]
import { PROFILE, installN8n } from './install-n8n.mts';
import { createChecks, printResults } from './lib/checks.mts';
import { loadExamples, packageTarball } from './lib/fixtures.mts';
import { agentTrack } from './scenarios/agent.mts';
import { runScenarios, type ScenarioContext } from './scenarios/common.mts';
import { eventsTrack } from './scenarios/events.mts';
import { headlessTrack } from './scenarios/headless.mts';
import { liveTrack } from './scenarios/live.mts';

const keep = process.argv.includes('--keep');
const argValue = (name: string) =>
	process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const tarballArg = argValue('--tarball');
const scheduler = process.argv.includes('--scheduler');
const all = [liveTrack, headlessTrack, eventsTrack, agentTrack];
const tracks = argValue('--tracks')?.split(',') ?? (scheduler ? ['live'] : all.map((t) => t.name));
const runs = all.filter((t) => tracks.includes(t.name));
if (runs.length !== tracks.length) throw new Error(`--tracks: one of ${tracks} is unknown`);
if (scheduler && tracks.some((t) => t !== 'live'))
	throw new Error('--scheduler runs the live track only (check d)');
/**
 * n8n 2.x's opt-in database-backed poll scheduler (@n8n/config scheduler.config.js): the first three
 * flags switch it on for poll triggers, the fourth keeps a poll node's state in `poller_state`.
 */
export const SCHEDULER_ENV = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};
if (scheduler && !PROFILE.n8n.startsWith('2.'))
	throw new Error(`--scheduler needs n8n 2.x (this is ${PROFILE.label})`);
const t00 = Date.now();

const log = (msg: string) =>
	process.stdout.write(
		`[e2e ${PROFILE.label}${scheduler ? ' scheduler' : ''} +${((Date.now() - t00) / 1000).toFixed(1)}s] ${msg}\n`,
	);
const { results, check, step } = createChecks(log);

// The examples poll every few minutes, within AirSign's List Sessions budget; this tier's triggers
// poll each minute, as n8n's default, to keep its waits short (its sandbox's budget is its own).
const examples = loadExamples();
for (const workflow of Object.values(examples))
	for (const node of workflow.nodes)
		if (node.parameters?.pollTimes) node.parameters.pollTimes = { item: [{ mode: 'everyMinute' }] };
for (const name of runs.flatMap((t) => t.examples))
	if (!examples[name]) throw new Error(`examples/${name}.json missing`);

const startEnv = scheduler ? SCHEDULER_ENV : {};
const ctx: ScenarioContext = { keep, scheduler, startEnv, examples, log, check, step };

let fatal;
try {
	await installN8n();
	log(`n8n ${PROFILE.n8n}${scheduler ? ` with ${Object.keys(SCHEDULER_ENV).join(', ')}` : ''}`);
	const { tarball, cleanup } = await step(
		tarballArg ? 'the given tarball' : 'npm run build + npm pack',
		() => packageTarball(tarballArg),
	);
	try {
		(await runScenarios(ctx, tarball, runs)).forEach((t, i) => {
			if (t.status === 'rejected') {
				const name = runs[i].label;
				results.push({ name, ok: false, s: 0, detail: String(t.reason?.message).split('\n')[0] });
				log(`FAIL ${name}: ${t.reason?.stack ?? t.reason}`);
			}
		});
	} finally {
		cleanup();
	}
} catch (err) {
	fatal = err;
	log(`FAIL setup: ${err.stack ?? err}`);
}
const order = (r: { name: string }) => r.name[0];
console.log(`\n[e2e] scenarios summary (${PROFILE.label}${scheduler ? ', poll scheduler' : ''})`);
printResults([...results].sort((x, y) => order(x).localeCompare(order(y))));
console.log(`  total ${((Date.now() - t00) / 1000).toFixed(1)} s`);
// every check of the tracks run: a, b, c, f, g, h, i (headless); d, and e, e2 and j unless
// --scheduler (live); k, l, q (events); n, o, p, r, s (agent)
const checksOf = { headless: 7, live: scheduler ? 1 : 4, events: 3, agent: 5 };
const expected = runs.reduce((n, t) => n + checksOf[t.name], 0);
const failed = fatal || results.some((r) => !r.ok) || results.filter((r) => r.ok).length < expected;
process.exit(failed ? 1 : 0);
