// The AirSign node as an AI agent's tool in a real n8n, with a scripted OpenAI-compatible server
// (lib/fakeOpenAi.mts): checks n, o, p, s (agentChecks.mts) and r (agentMcp.mts); e2e/README.md,
// "The agent check", says what each proves. Exit 1 on any failure.
//
//   [AIRSIGN_E2E_N8N=1|2] npx tsx e2e/agent.mts [--keep] [--tarball <file.tgz>]
import { PROFILE, installN8n } from './install-n8n.mts';
import {
	OUTPUT_WORKFLOW_ID,
	checkContractAssistant,
	checkModelList,
	checkOutput,
	checkTools,
	outputWorkflow,
	toolsWorkflow,
} from './agentChecks.mts';
import { MCP_WORKFLOW_ID, checkMcp, mcpCredential, mcpWorkflow } from './agentMcp.mts';
import { FAKE_OPENAI_API_KEY, SCRIPTS, openAiCredential } from './lib/agentScripts.mts';
import { createChecks, printResults } from './lib/checks.mts';
import { startFakeOpenAi, type FakeOpenAi } from './lib/fakeOpenAi.mts';
import { loadExamples, packageTarball, sandboxCredential } from './lib/fixtures.mts';
import {
	activateWorkflow,
	activateWorkflowAsEditor,
	getFreePort,
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
	makeUserFolder,
	removeUserFolder,
	setupOwner,
	startN8n,
} from './lib/n8n.mts';
import { describeExit } from './lib/proc.mts';
import { startSandboxProcess } from './lib/sandbox.mts';

const keep = process.argv.includes('--keep');
const argValue = (name: string) =>
	process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const t00 = Date.now();
const log = (msg: string) =>
	process.stdout.write(
		`[agent ${PROFILE.label} +${((Date.now() - t00) / 1000).toFixed(1)}s] ${msg}\n`,
	);
const { results, check, step } = createChecks(log);

const example = loadExamples()['contract-assistant'];
if (!example) throw new Error('examples/contract-assistant.json missing');

async function main() {
	await installN8n();
	const { tarball, cleanup } = await step('package (npm pack, or --tarball)', () =>
		packageTarball(argValue('--tarball')),
	);
	const userFolder = makeUserFolder('airsign-e2e-agent-');
	let sandbox: Awaited<ReturnType<typeof startSandboxProcess>> | undefined;
	let fake: FakeOpenAi | undefined;
	let instance: Awaited<ReturnType<typeof startN8n>> | undefined;
	try {
		sandbox = await step('sandbox started', async () =>
			startSandboxProcess({ port: await getFreePort() }),
		);
		fake = await startFakeOpenAi({ scripts: SCRIPTS, apiKey: FAKE_OPENAI_API_KEY, log });
		log(`scripted OpenAI-compatible server on ${fake.baseUrl}`);
		await step('package installed', () => installPackageIntoN8n(userFolder, tarball));
		await step('credentials + 4 workflows imported, 2 activated', async () => {
			await importCredential(userFolder, [
				sandboxCredential(sandbox!.url),
				openAiCredential(fake!.baseUrl),
				mcpCredential,
			]);
			const tools = toolsWorkflow(example);
			await importWorkflow(userFolder, [tools, example, outputWorkflow(example), mcpWorkflow()]);
			for (const wf of [tools, example]) await activateWorkflow(userFolder, wf.id);
		});
		instance = await step('n8n start', () => startN8n({ userFolder }));
		const { cookie } = await setupOwner(instance.url);
		// published as a user does, with the editor's switch: no n8n command to wait for
		await step('2 more workflows published from the editor', async () => {
			for (const id of [OUTPUT_WORKFLOW_ID, MCP_WORKFLOW_ID])
				await activateWorkflowAsEditor(instance!.url, cookie, id);
		});
		const context = { sandbox, fake, instance, cookie, example, log };
		await check(
			'n. an agent uses the AirSign tools: list templates, a bad draft corrected, a draft, progress, a reminder',
			() => checkTools(context),
		);
		await check(
			'o. contract assistant (examples/contract-assistant.json): chat → draft → approval → sent',
			() => checkContractAssistant(context),
		);
		await check('p. the OpenAI Chat Model’s model list comes from the server', () =>
			checkModelList(context),
		);
		await check(
			'r. an MCP client (@modelcontextprotocol/sdk) lists and calls the AirSign tools through the MCP Server Trigger',
			() => checkMcp(context),
		);
		await check(
			's. an agent reads Output Simplified and Selected Fields and sends the drafts it found',
			() => checkOutput(context),
		);
	} finally {
		if (instance) log(`n8n stopped (${describeExit(await instance.stop())})`);
		if (sandbox) await sandbox.stop();
		if (fake) await fake.close();
		if (keep) log(`kept ${userFolder}`);
		else removeUserFolder(userFolder);
		cleanup();
	}
}

let fatal;
try {
	await main();
} catch (err) {
	fatal = err;
	log(`FAIL setup: ${err.stack ?? err}`);
}
console.log(`\n[e2e] agent summary (${PROFILE.label})`);
printResults(results);
const failed = fatal || results.length < 5 || results.some((r) => !r.ok);
process.exit(failed ? 1 : 0);
