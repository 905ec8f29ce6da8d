// `npm run test:scale`: the package in n8n's queue mode, on n8n 2.41.3 only (queue mode is the same
// feature on 1.x). See e2e/README.md ("Queue mode") for what it checks.
//
//   npx tsx e2e/scale.mts [--short] [--keep] [--tarball <file.tgz>]
//
// Its own PostgreSQL and Redis, the sandbox, a local registry, one n8n main and two workers, which
// get the package as users do (N8N_COMMUNITY_PACKAGES); then the checks package, examples, stream
// (--short: steps A, B, E, one main restart) and tokens. This file runs the phases; the cluster,
// each check and the summary are in e2e/scale/. Exit 1 on any failure.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { N8N_PROFILES, PROFILE, installN8n } from './install-n8n.mts';
import { assertEnvInstall, publishForEnvInstall } from './lib/envInstall.mts';
import { loadExamples, samplePdf, sandboxCredential, withPdfPath } from './lib/fixtures.mts';
import {
	activateWorkflowAsEditor,
	getFreePort,
	makeUserFolder,
	packPackage,
	restPost,
} from './lib/n8n.mts';
import { describeExit, pollUntil } from './lib/proc.mts';
import { startSandboxProcess } from './lib/sandbox.mts';
import { ensureServerPackages, startPostgres, startRedis } from './lib/services.mts';
import {
	check,
	ctx,
	facts,
	log,
	printSummary,
	startMain,
	startWorker,
	step,
	TOKEN_TTL_S,
} from './scale/cluster.mts';
import { tokenCheck } from './scale/examples.mts';
import { triggerRequests } from './scale/stream.mts';
import { streamCheck } from './scale/streamCheck.mts';
import { forCluster, STREAM_WORKFLOW_ID, streamWorkflow } from './scale/workflows.mts';

if (PROFILE.id !== '2')
	throw new Error(
		`the queue-mode tier runs ${N8N_PROFILES[2].label} only; unset AIRSIGN_E2E_N8N (it is ${PROFILE.id})`,
	);
const EXAMPLES = ['upload-pdf', 'send-drafts', 'send-with-continue-on-fail'];
const argv = process.argv.slice(2);
const SHORT = argv.includes('--short');
const keep = argv.includes('--keep');
const tarballArg = argv.includes('--tarball') ? argv[argv.indexOf('--tarball') + 1] : undefined;

// At the end, or interrupted (SIGINT/SIGTERM: lib/proc.mts stops every process and exits), the
// folders go too (PostgreSQL and Redis remove their own).
process.on('exit', () => {
	if (ctx.packDir) rmSync(ctx.packDir, { recursive: true, force: true });
	for (const dir of Object.values(ctx.folders))
		if (keep) log(`kept ${dir}`);
		else if (dir.startsWith(os.tmpdir())) rmSync(dir, { recursive: true, force: true });
});

async function main() {
	await installN8n();
	const installed = await step('PostgreSQL and Redis packages', () =>
		ensureServerPackages({ log }),
	);
	if (installed.length) facts.push(`installed with apt-get: ${installed.join(', ')}`);
	let tarball = tarballArg;
	if (!tarball) {
		const packed = await step('npm run build + npm pack', () => packPackage());
		tarball = packed.tarball;
		ctx.packDir = path.dirname(tarball);
	}
	try {
		ctx.sandbox = await step('sandbox started', async () =>
			startSandboxProcess({ port: await getFreePort() }),
		);
		// Whole-second timestamps (ties), short tokens; the hourly List Sessions budget is raised:
		// the stream spends far more than a real organisation's 60 (counted in the summary), and the
		// budget's own behaviour is tested elsewhere (unit tests over virtual hours).
		await ctx.sandbox.configure({
			timestampPrecision: 's',
			tokenTtlSeconds: TOKEN_TTL_S,
			rateLimitPerHour: 10_000,
		});
		[ctx.pg, ctx.redis] = await step('PostgreSQL and Redis started', async () => [
			await startPostgres({ port: await getFreePort() }),
			await startRedis({ port: await getFreePort() }),
		]);
		log(`PostgreSQL on 127.0.0.1:${ctx.pg.port}, Redis on 127.0.0.1:${ctx.redis.port}`);

		for (const name of ['main', 'worker-1', 'worker-2'])
			ctx.folders[name] = makeUserFolder(`airsign-scale-${name.replace('-', '')}-`);
		ctx.folders.files = mkdtempSync(path.join(os.tmpdir(), 'airsign-scale-files-'));
		ctx.pdfPath = path.join(ctx.folders.files, 'contract.pdf');
		writeFileSync(ctx.pdfPath, samplePdf('AirSign queue-mode contract'));
		ctx.mainPort = await getFreePort();
		ctx.clusterEnv = {
			...ctx.pg.env,
			N8N_RESTRICT_FILE_ACCESS_TO: ctx.folders.files,
			...ctx.redis.env,
			EXECUTIONS_MODE: 'queue',
			// "Execute workflow" from the editor (and REST) runs on a worker too, not in the main.
			OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		};

		ctx.source = await step('package published to a local registry', () =>
			publishForEnvInstall(tarball),
		);
		// Every process gets the same N8N_COMMUNITY_PACKAGES; only the main acts on it.
		Object.assign(ctx.clusterEnv, ctx.source.env);
		// The workers install what the main recorded in PostgreSQL: started after it is ready (the
		// main installs before it serves), they find the record whatever the machine's speed.
		await step('main (queue mode) started, package installed from N8N_COMMUNITY_PACKAGES', () =>
			startMain(),
		);
		await step('worker-1 and worker-2 started, each installed the package', () =>
			Promise.all([startWorker('worker-1'), startWorker('worker-2')]),
		);
		await check('package: installed by N8N_COMMUNITY_PACKAGES on the main and both workers', () =>
			assertEnvInstall({
				source: ctx.source!,
				mainName: ctx.main!.name,
				instances: Object.fromEntries(
					[ctx.main!, ...Object.values(ctx.workers)].map((i) => [
						i.name,
						{ instance: i, userFolder: ctx.folders[i.name.split('#')[0]] },
					]),
				),
				pg: ctx.pg!,
			}),
		);
		// Made over REST as the editor makes them (no one-shot n8n CLI processes beside the cluster).
		await step(
			'credential + 3 examples + stream workflow created over REST, stream published',
			async () => {
				const [url, cookie] = [ctx.main!.url, ctx.cookie!];
				const { name, type, data } = sandboxCredential(ctx.sandbox!.url);
				const { data: credential } = await restPost<{ data: { id: string; name: string } }>(
					url,
					'/rest/credentials',
					cookie,
					{ name, type, data },
				);
				const workflows = EXAMPLES.map((n) =>
					forCluster(withPdfPath(loadExamples()[n], ctx.pdfPath!), credential),
				);
				for (const wf of [...workflows, streamWorkflow(credential)])
					await restPost(url, '/rest/workflows', cookie, wf);
				await activateWorkflowAsEditor(url, cookie, STREAM_WORKFLOW_ID);
			},
		);
		const activation = await pollUntil(
			async () => (await triggerRequests()).find((r) => r.status === 200),
			() => 'the activation poll of the trigger: not within 120 s',
			{ timeoutMs: 120_000, everyMs: 250 },
		);
		log(`trigger activated: first List Sessions at ${activation.at}`);

		await check('stream: every update delivered exactly once through restarts', () =>
			streamCheck(SHORT),
		);
		await check('tokens: renewed after expiry by main and workers, no call failed with 401', () =>
			tokenCheck(),
		);
	} finally {
		// n8n first: it stops cleanly while PostgreSQL and Redis still answer
		const n8n = [ctx.main, ...Object.values(ctx.workers)];
		await Promise.allSettled(
			n8n.map(async (p) => p && log(`${p.name} stopped (${describeExit(await p.stop())})`)),
		);
		for (const [name, service] of Object.entries({ redis: ctx.redis, postgres: ctx.pg }))
			await service?.stop().catch((e: Error) => log(`${name} stop: ${e.message}`));
		await ctx.sandbox?.stop();
		await ctx.source?.stop();
	}
}

let fatal: unknown;
try {
	await main();
} catch (err) {
	fatal = err;
	log(`FAIL setup: ${err.stack ?? err}`);
}
process.exit(printSummary({ short: SHORT, fatal }) ? 1 : 0);
