// @ts-nocheck (typed file by file: issue 34)
// `npm run test:scale`: the package in n8n's queue mode (see e2e/README.md, "Queue mode").
//
//   npx tsx e2e/scale.mts [--short] [--keep] [--tarball <file.tgz>]
//
// n8n 2.41.3 only (profile 2 of e2e/n8n-profiles.mts): queue mode is the same feature on 1.x, and
// the single-process tier already runs every check on both versions.
// Starts its own PostgreSQL and Redis (Debian packages, installed with apt-get when missing), the
// sandbox, one n8n main (EXECUTIONS_MODE=queue, the editor and the triggers) and two workers
// (`n8n worker`), each with its own user folder, all on PostgreSQL with one encryption key. The
// package reaches them only as n8n users install it: published to a local registry and named in
// N8N_COMMUNITY_PACKAGES (lib/envInstall.mts). Then:
//   package   the main installed it from the registry, each worker too, PostgreSQL records it
//   examples  upload, send drafts, continue on fail, run as the editor runs them; a worker runs each
//             (execution metadata in PostgreSQL) with the single-process tier's outcomes (checks a–c)
//   stream    an active AirSign Trigger on the main while the sandbox produces a stream of updates
//             (ties, bursts larger than a page, updates while the trigger pages); the main is killed
//             (SIGKILL) in the middle of a poll and again between polls, a worker once; every update
//             must arrive exactly once, counted from the trigger executions in PostgreSQL
//   tokens    client-credentials tokens live 45 s: fetched again after expiry by main and workers,
//             and every 401 was followed by a token fetch and a successful retry
// --short: the stream without step C (updates during paging) and D (kill between polls), the worker
// kill moved into the last step; one main restart. Exit 1 on any failure.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { N8N_PROFILES, PROFILE, installN8n } from './install-n8n.mts';
import { createChecks } from './lib/checks.mts';
import { assertEnvInstall, publishForEnvInstall } from './lib/envInstall.mts';
import {
	EXAMPLE_CHECK_NAMES,
	checkErrorPathExample,
	checkSendDraftsExample,
	checkUploadExample,
} from './lib/examples.mts';
import { loadExamples, samplePdf, sandboxCredential, withPdfPath } from './lib/fixtures.mts';
import {
	PACKAGE_NAME,
	activateWorkflow,
	deactivateWorkflowAsEditor,
	getFreePort,
	importCredential,
	importWorkflow,
	login,
	makeUserFolder,
	packPackage,
	parseFlatted,
	runWorkflowAsEditor,
	setupOwner,
	startN8n,
	startN8nWorker,
	waitForExecutionEnd,
} from './lib/n8n.mts';
import { describeExit, sleep } from './lib/proc.mts';
import { startSandboxProcess } from './lib/sandbox.mts';
import { ensureServerPackages, startPostgres, startRedis } from './lib/services.mts';

if (PROFILE.id !== '2')
	throw new Error(
		`the queue-mode tier runs ${N8N_PROFILES[2].label} only; unset AIRSIGN_E2E_N8N (it is ${PROFILE.id})`,
	);
const argv = process.argv.slice(2);
const SHORT = argv.includes('--short');
const keep = argv.includes('--keep');
const tarballArg = argv.includes('--tarball') ? argv[argv.indexOf('--tarball') + 1] : undefined;

/** Every stream session's name contains this; the trigger filters on it (Name Contains). */
const MARKER = 'scale-stream';
/** Token lifetime in the sandbox: shorter than a poll interval, so tokens expire all the time. */
const TOKEN_TTL_S = 45;
/**
 * How long the sandbox holds each List Sessions request while a poll is interrupted on purpose: at
 * most 3 requests of a poll are held, so a poll stays well within its minute (n8n 2.41.3, as 2.39,
 * starts the next poll on the next tick even if the previous one is still running; the trigger
 * skips such a poll, which would only move the step's updates one poll later).
 */
const HOLD_MS = 10_000;

/** Slows the next poll's first List Sessions requests, so that a kill can land in the middle of it. */
async function holdNextPoll() {
	await ctx.sandbox.injectFault({
		kind: 'latency',
		method: 'GET',
		path: '/api/v1/Sessions',
		count: 3,
		delayMs: HOLD_MS,
	});
}
/** Bound for one step's updates to arrive (a minute poll, a restart, a backlog read over two polls). */
const DELIVERY_TIMEOUT_MS = 5 * 60_000;
const STREAM_WORKFLOW_ID = 'AirSignScaleStrm1';
const TRIGGER_NAME = 'Session updated';
const RECORDER_NAME = 'Record process';

const t00 = Date.now();
const facts = []; // lines for the summary
const secs = (ms) => (ms / 1000).toFixed(1);
function log(msg) {
	process.stdout.write(`[scale +${secs(Date.now() - t00)}s] ${msg}\n`);
}
/** Checks record PASS/FAIL with their time and never throw; setup steps are timed and throw. */
const { results, check, step } = createChecks(log);

// ------------------------------------------------------------------ workflows

/**
 * Inserts an Execution Data node right after the workflow's first node (its trigger) that saves
 * `process` = the env var AIRSIGN_SCALE_PROCESS of the n8n process running the execution
 * ("main#1", "worker-2", …) as execution metadata: n8n 2.41.3, as 2.39, records no worker in its
 * execution records (the worker's id travels only in Bull job messages), so the workflow says who
 * ran it. Items pass through unchanged; the nodes after it see the same items and pairing.
 */
function withProcessRecorder(workflow) {
	const wf = structuredClone(workflow);
	const first = wf.nodes.find(
		(n) => n.type === 'n8n-nodes-base.manualTrigger' || n.type === `${PACKAGE_NAME}.airSignTrigger`,
	);
	wf.nodes.push({
		parameters: {
			operation: 'save',
			dataToSave: {
				values: [{ key: 'process', value: '={{ $env.AIRSIGN_SCALE_PROCESS }}' }],
			},
		},
		id: 'a1b2c3d4-0000-4000-8000-00000000ec01',
		name: RECORDER_NAME,
		type: 'n8n-nodes-base.executionData',
		typeVersion: 1.1,
		position: [first.position[0] + 110, first.position[1] + 160],
	});
	wf.connections[RECORDER_NAME] = wf.connections[first.name];
	wf.connections[first.name] = { main: [[{ node: RECORDER_NAME, type: 'main', index: 0 }]] };
	return wf;
}

/** The trigger under test, with every session update (of the stream's sessions) as one item. */
function streamWorkflow(credential) {
	const creds = { airSignApi: { id: credential.id, name: credential.name } };
	return withProcessRecorder({
		id: STREAM_WORKFLOW_ID,
		name: 'AirSign scale: every stream session update',
		nodes: [
			{
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					event: 'sessionUpdated',
					filters: { name: MARKER },
					options: {},
				},
				id: 'a1b2c3d4-0000-4000-8000-00000000ec11',
				name: TRIGGER_NAME,
				type: `${PACKAGE_NAME}.airSignTrigger`,
				typeVersion: 1,
				position: [0, 0],
				credentials: creds,
			},
			{
				// One AirSign call per execution from the worker (Execute Once), so that workers too
				// hold tokens that expire: a List Sessions that matches nothing.
				parameters: {
					resource: 'session',
					operation: 'getMany',
					returnAll: false,
					limit: 1,
					filters: { name: 'scale-probe-matches-nothing' },
					options: {},
				},
				id: 'a1b2c3d4-0000-4000-8000-00000000ec12',
				name: 'Call AirSign from the worker',
				type: `${PACKAGE_NAME}.airSign`,
				typeVersion: 1,
				position: [220, 0],
				executeOnce: true,
				credentials: creds,
			},
		],
		connections: {
			[TRIGGER_NAME]: {
				main: [[{ node: 'Call AirSign from the worker', type: 'main', index: 0 }]],
			},
		},
		settings: { executionOrder: 'v1' },
		active: false,
	});
}

// ------------------------------------------------------------------ the cluster

const ctx = {
	sandbox: undefined,
	pg: undefined,
	redis: undefined,
	/** The local registry holding the packed package (lib/envInstall.mts). */
	source: undefined,
	main: undefined,
	mainStarts: 0,
	workers: {}, // name → instance
	workerStarts: {},
	folders: {}, // main, worker-1, worker-2, files
	cookie: undefined,
	clusterEnv: undefined,
	dbEnv: undefined,
	mainPort: undefined,
	/** The sandbox clock runs this far ahead of real time (expireAllTokens moves it). */
	clockOffsetMs: 0,
	/** Sandbox times after which the main's, then a worker's, first call must meet an expired token. */
	tokenProbes: {},
};

/** Now on the sandbox's clock, which stamps the request log (`atMs`). */
const sandboxNow = () => Date.now() + ctx.clockOffsetMs;

/**
 * Moves the sandbox clock past the token lifetime: every token issued so far has expired (as after
 * an outage longer than a token's life). Returns the sandbox time just after the move.
 */
async function expireAllTokens() {
	const advanceMs = (TOKEN_TTL_S + 1) * 1000;
	await ctx.sandbox.clock({ advanceMs });
	ctx.clockOffsetMs += advanceMs;
	return sandboxNow();
}

// Interrupted (SIGINT/SIGTERM: lib/n8n.mts kills the n8n processes and exits): the user folders go
// too, as at the end of a run (PostgreSQL and Redis remove their own).
process.on('exit', () => {
	if (ctx.packDir) rmSync(ctx.packDir, { recursive: true, force: true });
	if (keep) return;
	for (const dir of Object.values(ctx.folders))
		if (dir.startsWith(os.tmpdir())) rmSync(dir, { recursive: true, force: true });
});

async function startMain() {
	ctx.mainStarts++;
	const name = `main#${ctx.mainStarts}`;
	const instance = await startN8n({
		userFolder: ctx.folders.main,
		port: ctx.mainPort,
		env: { ...ctx.clusterEnv, AIRSIGN_SCALE_PROCESS: name },
	});
	instance.name = name;
	ctx.main = instance;
	ctx.cookie =
		ctx.mainStarts === 1
			? (await setupOwner(instance.url)).cookie
			: (await login(instance.url)).cookie;
	log(`${name} ready (${secs(instance.startMs)} s), ${instance.url}`);
	return instance;
}

async function startWorker(base) {
	ctx.workerStarts[base] = (ctx.workerStarts[base] ?? 0) + 1;
	const name = ctx.workerStarts[base] === 1 ? base : `${base}#${ctx.workerStarts[base]}`;
	const instance = await startN8nWorker({
		userFolder: ctx.folders[base],
		env: { ...ctx.clusterEnv, AIRSIGN_SCALE_PROCESS: name },
	});
	instance.name = name;
	ctx.workers[base] = instance;
	log(`${name} ready (${secs(instance.startMs)} s)`);
	return instance;
}

// ------------------------------------------------------------------ reading PostgreSQL

async function executionRows(workflowId) {
	return await ctx.pg.query(
		`select id, mode, status, "createdAt", "startedAt", "stoppedAt" from execution_entity
		 where "workflowId" = $1 order by id`,
		[workflowId],
	);
}

async function executionRun(id) {
	const [row] = await ctx.pg.query('select data from execution_data where "executionId" = $1', [
		id,
	]);
	return row ? parseFlatted(row.data) : undefined;
}

/**
 * The `process` the Execution Data node saved. n8n writes execution metadata in its own step after
 * the execution's final status, so an ended execution may show it a moment later: waits up to
 * `waitMs` for it (0: just looks).
 */
async function executionProcess(id, { waitMs = 0 } = {}) {
	const t0 = Date.now();
	for (;;) {
		const rows = await ctx.pg.query(
			`select value from execution_metadata where "executionId" = $1 and key = 'process'`,
			[id],
		);
		if (rows[0]) return rows[0].value;
		if (Date.now() - t0 >= waitMs) return undefined;
		await sleep(250);
	}
}

const ENDED = ['success', 'error', 'crashed', 'canceled'];

/**
 * What the trigger delivered: every execution of the stream workflow with its trigger items,
 * read from PostgreSQL (the items are in the execution's data from the moment the main creates
 * it: first as the trigger node's input on the execution stack, then as its run data).
 */
const deliveries = new Map(); // execution id → { id, status, createdAt, process, items }
async function refreshDeliveries() {
	for (const row of await executionRows(STREAM_WORKFLOW_ID)) {
		const id = Number(row.id);
		const d = deliveries.get(id) ?? { id, items: undefined, process: undefined };
		d.status = row.status;
		d.mode = row.mode;
		d.createdAt = new Date(row.createdAt).getTime();
		if (d.items === undefined) {
			const run = await executionRun(id);
			const fromRun = run?.resultData?.runData?.[TRIGGER_NAME]?.[0]?.data?.main?.[0];
			const fromStack = run?.executionData?.nodeExecutionStack?.find(
				(e) => e.node?.name === TRIGGER_NAME,
			)?.data?.main?.[0];
			const items = fromRun ?? fromStack;
			if (items)
				d.items = items.map((i) => ({
					sessionId: i.json.sessionId,
					updatedAt: i.json.updatedAt,
					status: i.json.status,
					name: i.json.name,
				}));
		}
		if (ENDED.includes(d.status) && d.process === undefined) d.process = await executionProcess(id);
		deliveries.set(id, d);
	}
	return deliveries;
}

const stateKey = (sessionId, updatedAt) => `${sessionId}@${Date.parse(updatedAt)}`;

function deliveredCounts() {
	const counts = new Map();
	for (const d of deliveries.values())
		for (const item of d.items ?? []) {
			const key = stateKey(item.sessionId, item.updatedAt);
			counts.set(key, (counts.get(key) ?? 0) + 1);
		}
	return counts;
}

// ------------------------------------------------------------------ the stream's ground truth

/**
 * Every state a stream session took, as the sandbox answered the create or change: the trigger must
 * deliver each exactly once. The stream changes a session only after its current state has been
 * delivered, so no state is replaced before a poll could read it (two changes of one session
 * between two polls would rightly arrive as one: its latest state).
 */
const expected = new Map(); // stateKey → { sessionId, updatedAt, status, step }
const latest = new Map(); // sessionId → stateKey of its newest state
function recordState(session, stepName) {
	const key = stateKey(session.sessionId, session.updatedAt);
	expected.set(key, {
		sessionId: session.sessionId,
		updatedAt: session.updatedAt,
		status: session.status,
		step: stepName,
	});
	latest.set(session.sessionId, key);
	return key;
}

let sessionCounter = 0;
async function createSessions(stepName, count, { parallel = 1, status = 'inProgress' } = {}) {
	const made = [];
	for (let i = 0; i < count; i += parallel) {
		const batch = await Promise.all(
			Array.from({ length: Math.min(parallel, count - i) }, () => {
				sessionCounter++;
				return ctx.sandbox.createSession({
					name: `${MARKER} ${stepName} #${String(sessionCounter).padStart(3, '0')}`,
					status,
					recipients: [{ name: 'Sam Signer', email: `sam${sessionCounter}@example.com` }],
				});
			}),
		);
		for (const s of batch) {
			recordState(s, stepName);
			made.push(s);
		}
	}
	return made;
}

/** Sessions whose newest state has been delivered, oldest first; the stream changes only these. */
function settledSessions() {
	const counts = deliveredCounts();
	return [...latest.entries()].filter(([, key]) => counts.get(key) >= 1).map(([id]) => id);
}

async function patchSessions(stepName, ids, patchFor, { parallel = 1 } = {}) {
	const settled = new Set(settledSessions());
	for (const id of ids)
		if (!settled.has(id)) throw new Error(`stream bug: ${id} changed before its state arrived`);
	const out = [];
	for (let i = 0; i < ids.length; i += parallel) {
		const batch = await Promise.all(
			ids.slice(i, i + parallel).map((id, j) => ctx.sandbox.patchSession(id, patchFor(i + j))),
		);
		for (const s of batch) {
			recordState(s, stepName);
			out.push(s);
		}
	}
	return out;
}

/** Picks `count` settled sessions, spread over the stream so far, not in `exclude`. */
function pickSettled(count, exclude = new Set()) {
	const pool = settledSessions().filter((id) => !exclude.has(id));
	if (pool.length < count) throw new Error(`only ${pool.length} settled sessions, need ${count}`);
	const stride = pool.length / count;
	return Array.from({ length: count }, (_, i) => pool[Math.floor(i * stride)]);
}

async function triggerRequests() {
	return (await ctx.sandbox.requests()).filter(
		(r) => r.method === 'GET' && r.path === '/api/v1/Sessions' && r.query?.name === MARKER,
	);
}

/** Waits until `predicate()` holds; checks every `intervalMs`; fails after `timeoutMs` with `what`. */
async function waitFor(what, predicate, { timeoutMs, intervalMs = 250 }) {
	const t0 = Date.now();
	for (;;) {
		const value = await predicate();
		if (value) return value;
		if (Date.now() - t0 > timeoutMs) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await sleep(intervalMs);
	}
}

/**
 * Waits until every state recorded so far has arrived in a trigger execution and every stream
 * execution has ended; returns the executions that carried states of `stepName`.
 */
async function waitDelivered(stepName) {
	const t0 = Date.now();
	for (;;) {
		await refreshDeliveries();
		const counts = deliveredCounts();
		const missing = [...expected.keys()].filter((k) => !counts.has(k));
		// Ended, and (when it succeeded) with its metadata written.
		const open = [...deliveries.values()].filter(
			(d) => !ENDED.includes(d.status) || (d.status === 'success' && d.process === undefined),
		);
		if (!missing.length && !open.length) break;
		if (Date.now() - t0 > DELIVERY_TIMEOUT_MS)
			throw new Error(
				`step ${stepName}: after ${DELIVERY_TIMEOUT_MS / 1000} s, ${missing.length} states never arrived (e.g. ${missing.slice(0, 3).join(', ')}) and ${open.length} executions not ended (${open.map((d) => `${d.id} ${d.status}`).join(', ')})`,
			);
		await sleep(1_000);
	}
	const carried = [...deliveries.values()].filter((d) =>
		(d.items ?? []).some(
			(i) => expected.get(stateKey(i.sessionId, i.updatedAt))?.step === stepName,
		),
	);
	log(
		`step ${stepName}: all ${[...expected.values()].filter((e) => e.step === stepName).length} states arrived in ${secs(Date.now() - t0)} s, in execution(s) ${carried.map((d) => `${d.id} (${d.items.length} items, ${d.process})`).join(', ')}`,
	);
	return carried;
}

/**
 * Whether the trigger must ask for another page after `request` (a List Sessions page of its
 * cursor paging, answered 200): more than a page of stream sessions are newer than its
 * `updatedAfter` (every state counted was made before the request arrived).
 */
function morePagesFollow(request) {
	const q = request.query ?? {};
	if (q.sortBy !== 'updatedAt' || q.sortOrder !== 'asc' || q.updatedBefore || !q.updatedAfter)
		return false;
	const after = Date.parse(q.updatedAfter);
	let newer = 0;
	for (const key of latest.values()) if (Date.parse(expected.get(key).updatedAt) > after) newer++;
	return newer > 100;
}

/** The first trigger request after `sinceMs` answered 200 (a poll that read its first page). */
async function waitForAnsweredPoll(sinceMs, what) {
	return await waitFor(
		what,
		async () => (await triggerRequests()).find((r) => r.atMs > sinceMs && r.status === 200),
		{ timeoutMs: 3 * 60_000, intervalMs: 100 },
	);
}

// ------------------------------------------------------------------ the stream steps

const stepLog = []; // { name, note }

async function stepA() {
	const name = 'A';
	const singles = await createSessions(name, 10);
	const ties = await createSessions(name, 20, { parallel: 20 });
	log(`step A: ${singles.length} sessions one by one, ${ties.length} at once (ties)`);
	return name;
}

/**
 * A burst larger than a page, and some sessions completed; the main is killed while its poll
 * waits for the second page (the sandbox holds each List Sessions request HOLD_MS). Should a poll
 * come while the burst is being made and read part of it, the rest may fit one page: then the
 * burst is repeated (at most 3 times) so that the kill lands between two pages of one poll.
 */
async function stepB() {
	const name = 'B';
	let made = 0;
	let page1;
	for (let attempt = 1; ; attempt++) {
		made += (await createSessions(name, 150, { parallel: 25 })).length;
		if (attempt === 1)
			made += (
				await patchSessions(name, pickSettled(10), () => ({ status: 'completed' }), {
					parallel: 10,
				})
			).length;
		await holdNextPoll();
		const t0 = sandboxNow();
		log(
			`step B: ${made} states so far (bursts of 150 new, 10 completed); waiting for the next poll`,
		);
		const answered = await waitForAnsweredPoll(t0, 'step B: the next poll');
		if (morePagesFollow(answered)) {
			page1 = answered;
			break;
		}
		await ctx.sandbox.clearFaults();
		if (attempt === 3) throw new Error('step B: three polls in a row read the burst in one page');
		log('step B: a poll read part of the burst while it was made; the rest fits one page: again');
		await waitDelivered(name);
	}
	const victim = ctx.main;
	const res = await victim.kill('SIGKILL');
	const killedAt = Date.now();
	await ctx.sandbox.clearFaults();
	log(
		`step B: ${victim.name} killed (${describeExit(res)}) while its poll, having read a page with more to come, waited for the next one`,
	);
	// Nobody calls AirSign now (the main is down, the workers idle): expire every token, so the new
	// main's first call meets an expired token and must renew it.
	ctx.tokenProbes.main = await expireAllTokens();
	await startMain();
	const carried = await waitDelivered(name);
	const beforeKill = carried.filter((d) => d.createdAt <= killedAt);
	stepLog.push({
		name,
		note: `${made} states; ${victim.name} SIGKILLed mid-poll (it had read a page with more to come); ${beforeKill.length ? `NOTE: ${beforeKill.length} execution(s) created before the kill` : 'its poll emitted nothing'}; delivered after the restart by ${carried.map((d) => `${d.id} (${d.items.length} items, ${d.process})`).join(', ')}`,
	});
	return name;
}

/**
 * A burst larger than a page; while the poll waits for a later page, settled sessions change and
 * new ones appear: the changed ones move past what the poll has read, so it meets them again later
 * (in this poll or the next).
 */
async function stepC() {
	const name = 'C';
	const burstIds = new Set(
		(await createSessions(name, 120, { parallel: 20 })).map((s) => s.sessionId),
	);
	await holdNextPoll();
	const t0 = sandboxNow();
	log(`step C: burst of ${burstIds.size} new sessions; waiting for the next poll`);
	const page1 = await waitForAnsweredPoll(t0, 'step C: the next poll');
	const pagesFollow = morePagesFollow(page1);
	const changed = await patchSessions(
		name,
		pickSettled(15, burstIds),
		(i) => (i % 2 ? { status: 'completed' } : { touch: true }),
		{ parallel: 15 },
	);
	const created = await createSessions(name, 5, { parallel: 5 });
	const during1 = sandboxNow();
	await ctx.sandbox.clearFaults();
	const carried = await waitDelivered(name);
	// The changes came after page 1 was answered (it was in the log); they came during paging if the
	// poll's next page was answered after them (a held page is answered HOLD_MS after it arrived).
	const nextPage = (await triggerRequests()).find((r) => r.atMs > page1.atMs);
	const duringPaging = pagesFollow && nextPage !== undefined && nextPage.atMs + HOLD_MS > during1;
	stepLog.push({
		name,
		note: `${burstIds.size + changed.length + created.length} states; ${changed.length} changes + ${created.length} new sessions ${duringPaging ? 'made while the poll waited for its next page (during paging)' : 'NOT during paging this run'}; delivered by ${carried.map((d) => `${d.id} (${d.items.length} items, ${d.process})`).join(', ')}`,
	});
	return name;
}

/** A worker is killed; updates are made and the main is killed before the poll that would read them. */
async function stepD({ killWorker }) {
	const name = 'D';
	let workerKilledAt;
	if (killWorker) workerKilledAt = await killWorker1();
	const before = (await triggerRequests()).length;
	const changed = await patchSessions(name, pickSettled(20), (i) =>
		i % 3 ? { touch: true } : { status: 'expired' },
	);
	const created = await createSessions(name, 10, { parallel: 10 });
	const reqsBeforeKill = (await triggerRequests()).length;
	const victim = ctx.main;
	const res = await victim.kill('SIGKILL');
	const killedAt = Date.now();
	log(
		`step D: ${changed.length + created.length} updates, then ${victim.name} killed (${describeExit(res)})`,
	);
	await startMain();
	const carried = await waitDelivered(name);
	const pending = reqsBeforeKill === before;
	stepLog.push({
		name,
		note: `${changed.length + created.length} states made, then ${victim.name} SIGKILLed ${pending ? 'before any poll read them' : '(a poll came in between this run)'}; delivered by ${carried.map((d) => `${d.id} (${d.process})`).join(', ')}`,
	});
	if (pending)
		assert.ok(
			carried.every((d) => d.createdAt > killedAt),
			'the restarted main delivered them',
		);
	if (workerKilledAt) await checkSurvivorRan(carried, workerKilledAt);
	return name;
}

/** Last changes: sessions cancelled, a few new. */
async function stepE({ killWorker }) {
	const name = 'E';
	let workerKilledAt;
	if (killWorker) workerKilledAt = await killWorker1();
	const changed = await patchSessions(name, pickSettled(10), () => ({ status: 'cancelled' }), {
		parallel: 10,
	});
	const created = await createSessions(name, 5);
	const carried = await waitDelivered(name);
	stepLog.push({
		name,
		note: `${changed.length + created.length} states; delivered by ${carried.map((d) => `${d.id} (${d.process})`).join(', ')}`,
	});
	if (workerKilledAt) await checkSurvivorRan(carried, workerKilledAt);
	return name;
}

let workerKill;
async function killWorker1() {
	await refreshDeliveries();
	const open = [...deliveries.values()].filter((d) => !ENDED.includes(d.status));
	assert.equal(open.length, 0, 'no stream execution may be running when worker-1 is killed');
	const victim = ctx.workers['worker-1'];
	const res = await victim.kill('SIGKILL');
	const at = Date.now();
	workerKill = { name: victim.name, at, exit: describeExit(res) };
	log(`${victim.name} killed (${describeExit(res)}), idle; worker-2 alone takes the jobs`);
	return at;
}

async function checkSurvivorRan(carried, killedAt) {
	const after = carried.filter((d) => d.createdAt > killedAt);
	assert.ok(after.length > 0, 'an execution after the worker kill');
	assert.ok(
		after.every((d) => d.process === ctx.workers['worker-2'].name),
		`executions after the worker kill ran on ${after.map((d) => d.process)}`,
	);
	workerKill.survivor = after.map((d) => `${d.id} on ${d.process}`).join(', ');
}

// ------------------------------------------------------------------ examples (checks a–c)

async function runExampleOnWorker(ids, name, ran) {
	const executionId = await runWorkflowAsEditor(ctx.main.url, ctx.cookie, ids[name]);
	const exec = await waitForExecutionEnd(ctx.main.url, ctx.cookie, executionId, {
		timeoutMs: 120_000,
	});
	const ranOn = await executionProcess(Number(executionId), { waitMs: 60_000 });
	ran.push({ name, executionId, process: ranOn, status: exec.status });
	const error = exec.data?.resultData?.error?.message;
	const failure = error ?? (exec.status === 'success' ? undefined : `status ${exec.status}`);
	return { ok: failure === undefined, run: { data: exec.data }, failure, process: ranOn };
}

async function examplesPhase(ids, pdfPath) {
	const ran = [];
	const runExample = async (name) => {
		const result = await runExampleOnWorker(ids, name, ran);
		assert.match(
			String(result.process),
			/^worker-\d/,
			`${name} ran on ${result.process}, not on a worker`,
		);
		// The worker's own log says so too (it logs after saving the execution: wait for the line).
		const worker = ctx.workers[result.process.split('#')[0]];
		const line = new RegExp(`Worker finished execution ${ran.at(-1).executionId} `);
		await waitFor(
			`${result.process}'s log line for execution ${ran.at(-1).executionId}`,
			() => line.test(worker.output()),
			{ timeoutMs: 30_000 },
		);
		return result;
	};
	const on = () => ` [execution ${ran.at(-1).executionId} on ${ran.at(-1).process}]`;
	const sandbox = ctx.sandbox;
	await check(
		`${EXAMPLE_CHECK_NAMES.upload}`,
		async () => (await checkUploadExample({ sandbox, runExample, pdfPath })) + on(),
	);
	await check(
		`${EXAMPLE_CHECK_NAMES.send}`,
		async () => (await checkSendDraftsExample({ sandbox, runExample })) + on(),
	);
	await check(
		`${EXAMPLE_CHECK_NAMES.errorPath}`,
		async () => (await checkErrorPathExample({ sandbox, runExample })) + on(),
	);
	return ran;
}

// ------------------------------------------------------------------ final checks

function streamAccounting() {
	const counts = deliveredCounts();
	const lost = [...expected.keys()].filter((k) => !counts.has(k));
	const repeated = [...counts.entries()].filter(([, n]) => n > 1);
	const unexpected = [...counts.keys()].filter((k) => !expected.has(k));
	const items = [...counts.values()].reduce((a, b) => a + b, 0);
	const byTime = new Map();
	for (const e of expected.values()) {
		const t = Date.parse(e.updatedAt);
		byTime.set(t, (byTime.get(t) ?? 0) + 1);
	}
	const ties = [...byTime.values()].filter((n) => n > 1);
	return { counts, lost, repeated, unexpected, items, ties, sessions: latest.size };
}

/**
 * The first call matching `isCall` at or after `since` (sandbox time) answered 401, then a token was
 * fetched, then the same call was repeated and succeeded: a renewal by whoever made the call.
 */
function renewalAfter(reqs, since, isCall, what) {
	const first = reqs.find((r) => r.atMs >= since && isCall(r));
	assert.ok(first, `${what}: no call after the tokens expired`);
	assert.equal(first.status, 401, `${what}: the first call after expiry answered ${first.status}`);
	const token = reqs.find(
		(r) => r.atMs >= first.atMs && r.method === 'POST' && r.path === '/oidc/token',
	);
	assert.ok(token && token.status === 200, `${what}: no token fetched after the 401`);
	const retry = reqs.find(
		(r) =>
			r.atMs >= token.atMs &&
			isCall(r) &&
			JSON.stringify(r.query ?? {}) === JSON.stringify(first.query ?? {}),
	);
	assert.ok(retry && retry.status === 200, `${what}: the call was not repeated with success`);
	return `${first.method} ${first.path} 401 → token → 200`;
}

async function tokenChecks() {
	const reqs = await ctx.sandbox.requests();
	const tokens = reqs.filter((r) => r.method === 'POST' && r.path === '/oidc/token');
	assert.ok(
		tokens.every((r) => r.status === 200),
		`token requests answered ${tokens.map((r) => r.status)}`,
	);
	const firstExpiry = tokens[0].atMs + TOKEN_TTL_S * 1000;
	const renewals = tokens.filter((r) => r.atMs >= firstExpiry);
	assert.ok(renewals.length >= 2, `${renewals.length} tokens fetched after the first expired`);
	// The main: its first poll after the restart in step B (tokens expired while it was down).
	const isTriggerList = (r) =>
		r.method === 'GET' && r.path === '/api/v1/Sessions' && r.query?.name === MARKER;
	const mainRenewal = renewalAfter(reqs, ctx.tokenProbes.main, isTriggerList, 'main');
	// A worker: the upload example after the trigger was deactivated and the tokens expired.
	const isUpload = (r) => r.method === 'POST' && r.path === '/api/v1/File';
	const workerRenewal = renewalAfter(reqs, ctx.tokenProbes.worker, isUpload, 'worker');
	// n8n renews a client-credentials token when a call answers 401, then repeats the call: a 401
	// after each expiry is how it learns. None may be a call's final answer.
	const unauthorized = reqs.filter((r) => r.status === 401);
	const unrecovered = unauthorized.filter((r) => {
		const renewed = tokens.find((t) => t.atMs >= r.atMs);
		if (!renewed) return true;
		const sameQuery = JSON.stringify(r.query ?? {});
		return !reqs.some(
			(x) =>
				x.atMs >= renewed.atMs &&
				x.method === r.method &&
				x.path === r.path &&
				JSON.stringify(x.query ?? {}) === sameQuery &&
				x.status >= 200 &&
				x.status < 300,
		);
	});
	assert.deepEqual(
		unrecovered.map((r) => `${r.method} ${r.path} at ${r.at}`),
		[],
		'a 401 without a token fetch and a successful retry after it',
	);
	const limited = reqs.filter((r) => r.status === 429);
	assert.equal(limited.length, 0, `429 answers: ${limited.length}`);
	const lists = reqs.filter((r) => r.method === 'GET' && r.path === '/api/v1/Sessions');
	return {
		tokens: tokens.length,
		renewals: renewals.length,
		unauthorized: unauthorized.length,
		unauthorizedTrigger: unauthorized.filter(isTriggerList).length,
		mainRenewal,
		workerRenewal,
		api: reqs.filter((r) => r.path.startsWith('/api/v1/')).length,
		lists: lists.length,
		triggerLists: lists.filter(isTriggerList).length,
	};
}

// ------------------------------------------------------------------ main

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
	const examples = loadExamples();
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

		ctx.folders.main = makeUserFolder('airsign-scale-main-');
		ctx.folders['worker-1'] = makeUserFolder('airsign-scale-worker1-');
		ctx.folders['worker-2'] = makeUserFolder('airsign-scale-worker2-');
		ctx.folders.files = mkdtempSync(path.join(os.tmpdir(), 'airsign-scale-files-'));
		const pdfPath = path.join(ctx.folders.files, 'contract.pdf');
		writeFileSync(pdfPath, samplePdf('AirSign queue-mode contract'));
		ctx.mainPort = await getFreePort();
		ctx.dbEnv = { ...ctx.pg.env, N8N_RESTRICT_FILE_ACCESS_TO: ctx.folders.files };
		ctx.clusterEnv = {
			...ctx.dbEnv,
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
		const credential = sandboxCredential(ctx.sandbox.url);
		const exampleWfs = [
			withProcessRecorder(withPdfPath(examples['upload-pdf'], pdfPath)),
			withProcessRecorder(examples['send-drafts']),
			withProcessRecorder(examples['send-with-continue-on-fail']),
		];
		const ids = {
			'upload-pdf': exampleWfs[0].id,
			'send-drafts': exampleWfs[1].id,
			'send-with-continue-on-fail': exampleWfs[2].id,
		};
		await step(
			'credential + 3 examples + stream workflow imported into PostgreSQL, stream published',
			async () => {
				await importCredential(ctx.folders.main, credential, { env: ctx.dbEnv });
				await importWorkflow(ctx.folders.main, [...exampleWfs, streamWorkflow(credential)], {
					env: ctx.dbEnv,
				});
				await activateWorkflow(ctx.folders.main, STREAM_WORKFLOW_ID, { env: ctx.dbEnv });
			},
		);

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
				source: ctx.source,
				mainName: ctx.main.name,
				instances: Object.fromEntries(
					[ctx.main, ...Object.values(ctx.workers)].map((i) => [
						i.name,
						{ instance: i, userFolder: ctx.folders[i.name.split('#')[0]] },
					]),
				),
				pg: ctx.pg,
			}),
		);
		const activation = await waitFor(
			'the activation poll of the trigger',
			async () => (await triggerRequests()).find((r) => r.status === 200),
			{ timeoutMs: 120_000 },
		);
		log(`trigger activated: first List Sessions at ${activation.at}`);

		let examplesRan;
		await check('stream: every update delivered exactly once through restarts', async () => {
			const a = await stepA();
			// The examples run on the workers while step A waits for its poll.
			const examplesDone = examplesPhase(ids, pdfPath).then((r) => (examplesRan = r));
			await waitDelivered(a);
			stepLog.push({ name: 'A', note: `30 states (10 one by one, 20 at once)` });
			await examplesDone;
			await stepB();
			if (!SHORT) {
				await stepC();
				await stepD({ killWorker: true });
				await startWorker('worker-1');
				await stepE({ killWorker: false });
			} else {
				await stepE({ killWorker: true });
			}
			const acc = streamAccounting();
			const execs = [...deliveries.values()];
			facts.push(
				`stream: ${acc.sessions} sessions, ${expected.size} states made, ${acc.items} items delivered in ${execs.length} trigger executions: lost ${acc.lost.length}, repeated ${acc.repeated.length}, unexpected ${acc.unexpected.length}`,
				`  ties: ${acc.ties.length} instants shared by 2+ states (largest ${Math.max(0, ...acc.ties)})`,
				...stepLog.map((s) => `  step ${s.name}: ${s.note}`),
				`  executions: ${execs.map((d) => `${d.id}:${d.items?.length ?? '?'}@${d.process}`).join(' ')}`,
			);
			if (workerKill)
				facts.push(
					`  ${workerKill.name} SIGKILLed while idle (${workerKill.exit}); next executions: ${workerKill.survivor}`,
				);
			assert.deepEqual(acc.lost, [], 'lost updates');
			assert.deepEqual(acc.repeated, [], 'repeated updates');
			assert.deepEqual(acc.unexpected, [], 'updates nobody made');
			const bad = execs.filter(
				(d) => d.status !== 'success' || d.mode !== 'trigger' || !/^worker-\d/.test(d.process),
			);
			assert.deepEqual(
				bad.map((d) => `${d.id} ${d.mode} ${d.status} on ${d.process}`),
				[],
				'every trigger execution: mode trigger, success, run by a worker',
			);
			return `${expected.size} states → ${acc.items} items in ${execs.length} executions, 0 lost, 0 repeated; main killed ${ctx.mainStarts - 1}×, worker killed 1×`;
		});
		if (examplesRan)
			facts.push(
				`examples: ${examplesRan.map((r) => `${r.name} → execution ${r.executionId} ${r.status} on ${r.process}`).join('; ')}`,
			);

		await check(
			'tokens: renewed after expiry by main and workers, no call failed with 401',
			async () => {
				// A worker's renewal, with nobody else calling AirSign: the trigger is deactivated, every
				// token expires, and the upload example runs again (on a worker).
				await deactivateWorkflowAsEditor(ctx.main.url, ctx.cookie, STREAM_WORKFLOW_ID);
				ctx.tokenProbes.worker = await expireAllTokens();
				const ran = [];
				const upload = await checkUploadExample({
					sandbox: ctx.sandbox,
					runExample: async (name) => {
						const result = await runExampleOnWorker(ids, name, ran);
						assert.match(String(result.process), /^worker-\d/, `ran on ${result.process}`);
						return result;
					},
					pdfPath,
				});
				const t = await tokenChecks();
				facts.push(
					`tokens (lifetime ${TOKEN_TTL_S} s): ${t.tokens} fetched, ${t.renewals} after the first expired; ${t.unauthorized} answers 401 (${t.unauthorizedTrigger} to the trigger on the main), each followed by a token fetch and a successful retry`,
					`  main after its restart with expired tokens: ${t.mainRenewal}; ${ran[0].process} (upload again, trigger deactivated, tokens expired): ${t.workerRenewal}; ${upload}`,
					`  ${t.api} API requests, ${t.lists} List Sessions (${t.triggerLists} by the trigger; the sandbox's hourly budget was raised for the tier)`,
				);
				return `${t.tokens} token fetches (${t.renewals} after expiry), ${t.unauthorized} 401s all recovered; main and ${ran[0].process} each renewed`;
			},
		);
	} finally {
		const stops = [];
		if (ctx.main)
			stops.push(ctx.main.stop().then((r) => log(`${ctx.main.name} stopped (${describeExit(r)})`)));
		for (const w of Object.values(ctx.workers))
			stops.push(w.stop().then((r) => log(`${w.name} stopped (${describeExit(r)})`)));
		await Promise.allSettled(stops);
		if (ctx.redis) await ctx.redis.stop().catch((e) => log(`redis stop: ${e.message}`));
		if (ctx.pg) await ctx.pg.stop().catch((e) => log(`postgres stop: ${e.message}`));
		if (ctx.sandbox) await ctx.sandbox.stop();
		if (ctx.source) await ctx.source.stop();
		for (const dir of Object.values(ctx.folders)) {
			if (keep) log(`kept ${dir}`);
			else if (dir.startsWith(os.tmpdir())) rmSync(dir, { recursive: true, force: true });
		}
		if (ctx.packDir) rmSync(ctx.packDir, { recursive: true, force: true });
	}
}

let fatal;
try {
	await main();
} catch (err) {
	fatal = err;
	log(`FAIL setup: ${err.stack ?? err}`);
}
console.log(`\n[scale] queue-mode summary${SHORT ? ' (--short)' : ''}`);
for (const r of results)
	console.log(
		`  ${r.ok ? 'PASS' : 'FAIL'}  ${r.s.toFixed(1).padStart(6)} s  ${r.name}\n                  ${r.detail}`,
	);
for (const f of facts) console.log(`  ${f}`);
const failed = fatal || results.length < 6 || results.some((r) => !r.ok);
console.log(`  ${failed ? 'FAILED' : 'ALL PASSED'} in ${secs(Date.now() - t00)} s`);
process.exit(failed ? 1 : 0);
