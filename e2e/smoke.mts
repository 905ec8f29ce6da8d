// Proves the e2e machinery against the real n8n, with built-in nodes: install (cached) -> build +
// pack + install this package -> import workflows -> execute one headless -> import an airSignApi
// credential -> a polling trigger published from the CLI runs on activation -> n8n start + healthz
// + loaded node types -> stop. `--no-package`: built-in nodes only.
//
//   npx tsx e2e/smoke.mts [--keep] [--no-package] [--tarball <file.tgz>]  (--tarball: use that pack, no build)
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { installN8n } from './install-n8n.mts';
import {
	PACKAGE_NAME,
	activateWorkflow,
	executeWorkflow,
	getExecution,
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
	makeUserFolder,
	n8nFetch,
	nodeOutput,
	queryDb,
	readTypeFile,
	removeUserFolder,
	setupOwner,
	startN8n,
	waitForExecutions,
	waitForTypes,
} from './lib/n8n.mts';
import { timed } from './lib/proc.mts';
import { chainWorkflow, packageTarball, sandboxCredential } from './lib/fixtures.mts';

const keep = process.argv.includes('--keep');
const withPackage = !process.argv.includes('--no-package');
const tarballArg = process.argv.includes('--tarball')
	? process.argv[process.argv.indexOf('--tarball') + 1]
	: undefined;
const timings: Record<string, number> = {};
const step = <T,>(label: string, fn: () => T | Promise<T>) => timed(label, fn, timings);
const report: { package: string; loadedNodes?: string[]; loadedCredentials?: string[] } = {
	package: withPackage ? 'not installed' : 'not tried (--no-package)',
};
const log = (...args: unknown[]) => console.log('[e2e]', ...args);

/** A node or credential type as n8n lists it (the fields printed here). */
type LoadedType = { name: string; version?: number | number[] };

const nodeId = (n: number) => `f1c1a1e0-0000-4000-8000-00000000000${n}`;
const builtinWorkflow = chainWorkflow(
	{ id: 'e2eSmokeBuiltin01', name: 'e2e smoke: built-in nodes', active: false },
	[
		{
			name: 'Manual Trigger',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			parameters: {},
		},
		{
			name: 'Set',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			parameters: {
				mode: 'manual',
				assignments: {
					assignments: [
						{ id: 'a1', name: 'hello', value: 'world', type: 'string' },
						{ id: 'a2', name: 'answer', value: '={{ 40 + 2 }}', type: 'number' },
					],
				},
				options: {},
			},
		},
	],
	nodeId,
);

// A polling trigger (built-in RSS trigger against a local feed whose item is dated tomorrow):
// published from the CLI before `n8n start`, it must run on activation.
const future = new Date(Date.now() + 86_400_000).toUTCString();
const feed = http.createServer((_req, res) => {
	res.setHeader('content-type', 'application/rss+xml');
	res.end(
		`<?xml version="1.0"?><rss version="2.0"><channel><title>e2e</title><link>http://127.0.0.1/</link><description>e2e</description><item><title>probe</title><link>http://127.0.0.1/1</link><guid>1</guid><pubDate>${future}</pubDate></item></channel></rss>`,
	);
});
await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
const pollWf = chainWorkflow(
	{ id: 'e2eSmokePoll01', name: 'e2e smoke: polling trigger', active: false },
	[
		{
			name: 'RSS Trigger',
			type: 'n8n-nodes-base.rssFeedReadTrigger',
			typeVersion: 1,
			parameters: {
				pollTimes: { item: [{ mode: 'everyMinute' }] },
				feedUrl: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed`,
			},
		},
	],
	() => nodeId(3),
);

async function main() {
	await step('install n8n (cached after the first run)', () => installN8n());
	const userFolder = makeUserFolder();
	log(`user folder: ${userFolder}`);
	let instance: Awaited<ReturnType<typeof startN8n>> | undefined;
	let cleanupPack: (() => void) | undefined;
	try {
		// The package as npm users get it: the files package.json's "n8n" names are in it.
		if (withPackage) {
			const { tarball, files, cleanup } = await step(
				tarballArg ? 'the given tarball' : 'npm run build + npm pack',
				() => packageTarball(tarballArg),
			);
			cleanupPack = cleanup;
			const dir = await step('install tarball into $N8N_USER_FOLDER/.n8n/nodes', () =>
				installPackageIntoN8n(userFolder, tarball),
			);
			log(`${PACKAGE_NAME} installed at ${dir} (${files.length} files in the tarball)`);
			report.package = 'built, packed, installed';
		}

		// Headless execution with built-in nodes (the community package loaded too).
		await step('n8n import:workflow (built-in nodes, polling trigger)', () =>
			importWorkflow(userFolder, [builtinWorkflow, pollWf]),
		);
		const { run } = await step('n8n execute --rawOutput', () =>
			executeWorkflow(userFolder, builtinWorkflow.id, { expectSuccess: true }),
		);
		assert.deepEqual(nodeOutput(run, 'Set'), [{ hello: 'world', answer: 42 }]);
		log('execute: Set node produced', JSON.stringify(nodeOutput(run, 'Set')));

		// Credential import with plain data (encrypted by n8n with N8N_ENCRYPTION_KEY).
		if (withPackage)
			await step('n8n import:credentials (airSignApi, plain data)', () =>
				importCredential(userFolder, sandboxCredential('http://127.0.0.1:9/')),
			);
		await step('n8n publish:workflow (polling trigger)', () =>
			activateWorkflow(userFolder, pollWf.id),
		);

		// The server: healthz, the activated workflow's first poll, loaded node types.
		instance = await step('n8n start until /healthz/readiness', () => startN8n({ userFolder }));
		assert.equal((await n8nFetch(`${instance.url}/healthz`)).status, 200);
		const nodes = await waitForTypes(userFolder, 'nodes', (list) =>
			list.some((n) => n.name === 'n8n-nodes-base.set'),
		);
		log(`${instance.url} healthy; ${nodes.length} node types loaded`);
		const { cookie } = await setupOwner(instance.url);
		const t0 = Date.now();
		// n8n polls each minute; three minutes only to catch a hang on a busy machine
		const [pollExec] = await waitForExecutions(
			instance.url,
			cookie,
			(list) => list.some((e) => e.status === 'success'),
			{ workflowId: pollWf.id, timeoutMs: 180_000 },
		);
		timings['first poll execution after ready'] = (Date.now() - t0) / 1000;
		assert.equal(pollExec.mode, 'trigger');
		const full = await getExecution(instance.url, cookie, pollExec.id);
		const polled = full.data.resultData.runData['RSS Trigger'][0].data!.main![0]!;
		assert.deepEqual(
			polled.map((i) => i.json.title),
			['probe'],
		);
		const [wfRow] = await queryDb(
			userFolder,
			'select activeVersionId, staticData from workflow_entity where id = ?',
			[pollWf.id],
		);
		log(
			`polling workflow ran on activation: execution ${pollExec.id} (${pollExec.mode}, ${pollExec.status}); staticData ${wfRow.staticData}`,
		);
		if (withPackage) {
			const res = await n8nFetch(`${instance.url}/types/nodes.json`, {
				headers: { cookie, 'browser-id': 'e2e' },
			});
			const ours = ((await res.json()) as LoadedType[]).filter((n) =>
				n.name.startsWith(`${PACKAGE_NAME}.`),
			);
			const creds = readTypeFile<LoadedType[]>(userFolder, 'credentials');
			// the types' icons are check e's (scenarios/live.mts), asserted there
			report.loadedNodes = ours.map((n) => `${n.name}@${[n.version].flat().join(',')}`);
			report.loadedCredentials = creds.filter((c) => c.name === 'airSignApi').map((c) => c.name);
			const related = instance
				.output()
				.split('\n')
				.filter((l) => /airsign|community|package/i.test(l))
				.slice(-10);
			assert.ok(
				ours.length,
				`package nodes NOT loaded; related n8n output:\n${related.join('\n')}`,
			);
		}
		const exit = await step('n8n stop (SIGTERM)', () => instance!.stop());
		instance = undefined;
		assert.equal(exit.code, 0, `n8n exited with ${JSON.stringify(exit)}`);
	} finally {
		if (instance) await instance.stop(5_000);
		feed.close();
		cleanupPack?.();
		if (keep) log(`kept ${userFolder}`);
		else removeUserFolder(userFolder);
	}
	log('SMOKE OK', JSON.stringify({ timings, report }, null, 2));
}

main().catch((err) => {
	console.error(`[e2e] SMOKE FAILED: ${err.stack ?? err}`);
	console.error(JSON.stringify({ timings, report }, null, 2));
	process.exit(1);
});
