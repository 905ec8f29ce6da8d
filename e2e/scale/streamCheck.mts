// The stream check: steps A–E (sessions created and changed while the main is killed mid-poll and
// between polls, and worker-1 once; each step waits until its states have arrived), then every
// state made must have arrived exactly once, each trigger execution run by a worker.
import assert from 'node:assert/strict';
import { hasEnded } from '../lib/n8n.mts';
import { describeExit } from '../lib/proc.mts';
import {
	ctx,
	expireAllTokens,
	facts,
	HOLD_MS,
	holdNextPoll,
	log,
	sandboxNow,
	startMain,
	startWorker,
} from './cluster.mts';
import { examplesPhase } from './examples.mts';
import {
	createSessions,
	deliveredCounts,
	deliveries,
	expected,
	latest,
	morePagesFollow,
	patchSessions,
	pickSettled,
	refreshDeliveries,
	triggerRequests,
	waitDelivered,
	waitForAnsweredPoll,
	type Delivery,
} from './stream.mts';
const stepLog: { name: string; note: string }[] = [];
/** Set when worker-1 is killed. */
let workerKill: { name: string; exit: string; survivor?: string } | undefined;

/**
 * A burst larger than a page; the main is killed while its poll waits for the second page. A poll
 * that read part of the burst while it was made may leave one page: then a new burst (3 at most).
 */
async function stepB(): Promise<void> {
	const name = 'B';
	let made = 0;
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
		if (morePagesFollow(answered)) break;
		await ctx.sandbox!.clearFaults();
		if (attempt === 3) throw new Error('step B: three polls in a row read the burst in one page');
		log('step B: a poll read part of the burst while it was made; the rest fits one page: again');
		await waitDelivered(name);
	}
	const victim = ctx.main!;
	const res = await victim.kill('SIGKILL');
	const killedAt = Date.now();
	await ctx.sandbox!.clearFaults();
	log(
		`step B: ${victim.name} killed (${describeExit(res)}) while its poll, having read a page with more to come, waited for the next one`,
	);
	// nobody calls AirSign now: the new main's first call meets an expired token
	ctx.tokenProbes.main = await expireAllTokens();
	await startMain();
	const carried = await waitDelivered(name);
	const beforeKill = carried.filter((d) => d.createdAt <= killedAt);
	stepLog.push({
		name,
		note: `${made} states; ${victim.name} SIGKILLed mid-poll (it had read a page with more to come); ${beforeKill.length ? `NOTE: ${beforeKill.length} execution(s) created before the kill` : 'its poll emitted nothing'}; delivered after the restart by ${carried.map((d) => `${d.id} (${d.items!.length} items, ${d.process})`).join(', ')}`,
	});
}

/** A burst larger than a page; while the poll pages, settled sessions change and new ones appear. */
async function stepC(): Promise<void> {
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
	await ctx.sandbox!.clearFaults();
	const carried = await waitDelivered(name);
	// during paging: the next page (held HOLD_MS) was answered after the changes
	const nextPage = (await triggerRequests()).find((r) => r.atMs > page1.atMs);
	const duringPaging = pagesFollow && nextPage !== undefined && nextPage.atMs + HOLD_MS > during1;
	stepLog.push({
		name,
		note: `${burstIds.size + changed.length + created.length} states; ${changed.length} changes + ${created.length} new sessions ${duringPaging ? 'made while the poll waited for its next page (during paging)' : 'NOT during paging this run'}; delivered by ${carried.map((d) => `${d.id} (${d.items!.length} items, ${d.process})`).join(', ')}`,
	});
}

/** Worker-1 killed; updates made, then the main killed before the poll that would read them. */
async function stepD(workerKilledAt?: number): Promise<void> {
	const name = 'D';
	const before = (await triggerRequests()).length;
	const changed = await patchSessions(name, pickSettled(20), (i) =>
		i % 3 ? { touch: true } : { status: 'expired' },
	);
	const created = await createSessions(name, 10, { parallel: 10 });
	const reqsBeforeKill = (await triggerRequests()).length;
	const victim = ctx.main!;
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
}

/** Last changes: sessions cancelled, a few new. */
async function stepE(workerKilledAt?: number): Promise<void> {
	const name = 'E';
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
}

async function killWorker1(): Promise<number> {
	await refreshDeliveries();
	const open = [...deliveries.values()].filter((d) => !hasEnded(d));
	assert.equal(open.length, 0, 'no stream execution may be running when worker-1 is killed');
	const victim = ctx.workers['worker-1'];
	const res = await victim.kill('SIGKILL');
	const at = Date.now();
	workerKill = { name: victim.name, exit: describeExit(res) };
	log(`${victim.name} killed (${describeExit(res)}), idle; worker-2 alone takes the jobs`);
	return at;
}

async function checkSurvivorRan(carried: Delivery[], killedAt: number): Promise<void> {
	const after = carried.filter((d) => d.createdAt > killedAt);
	assert.ok(after.length > 0, 'an execution after the worker kill');
	assert.ok(
		after.every((d) => d.process === ctx.workers['worker-2'].name),
		`executions after the worker kill ran on ${after.map((d) => d.process)}`,
	);
	workerKill!.survivor = after.map((d) => `${d.id} on ${d.process}`).join(', ');
}

/** Every state made against every item delivered: lost, repeated, unexpected, and the ties. */
function streamAccounting() {
	const counts = deliveredCounts();
	const lost = [...expected.keys()].filter((k) => !counts.has(k));
	const repeated = [...counts.entries()].filter(([, n]) => n > 1);
	const unexpected = [...counts.keys()].filter((k) => !expected.has(k));
	const items = [...counts.values()].reduce((a, b) => a + b, 0);
	const byTime = new Map<number, number>();
	for (const e of expected.values()) {
		const t = Date.parse(e.updatedAt);
		byTime.set(t, (byTime.get(t) ?? 0) + 1);
	}
	const ties = [...byTime.values()].filter((n) => n > 1);
	return { counts, lost, repeated, unexpected, items, ties, sessions: latest.size };
}

export async function streamCheck(short: boolean): Promise<string> {
	const singles = await createSessions('A', 10);
	const ties = await createSessions('A', 20, { parallel: 20 });
	log(`step A: ${singles.length} sessions one by one, ${ties.length} at once (ties)`);
	// the examples run on the workers while step A waits for its poll
	const examplesDone = examplesPhase();
	await waitDelivered('A');
	stepLog.push({ name: 'A', note: `30 states (10 one by one, 20 at once)` });
	await examplesDone;
	await stepB();
	if (!short) {
		await stepC();
		await stepD(await killWorker1());
		await startWorker('worker-1');
		await stepE();
	} else await stepE(await killWorker1());
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
		(d) => d.status !== 'success' || d.mode !== 'trigger' || !/^worker-\d/.test(String(d.process)),
	);
	assert.deepEqual(
		bad.map((d) => `${d.id} ${d.mode} ${d.status} on ${d.process}`),
		[],
		'every trigger execution: mode trigger, success, run by a worker',
	);
	return `${expected.size} states → ${acc.items} items in ${execs.length} executions, 0 lost, 0 repeated; main killed ${ctx.mainStarts - 1}×, worker killed 1×`;
}
