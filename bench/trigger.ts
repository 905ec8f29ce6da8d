/** 4. AirSign Trigger: requests per idle poll, a burst of N updates against a raw loop reading the same, and its static data with N sessions in flight. */
import type { BenchContext, SectionResult } from './lib/context';
import { countRequests, resetSandbox } from './lib/context';
import { triggerHarness } from './lib/engine';
import { idlePollCase } from './lib/peer-cases';
import { rawListAll } from './lib/raw';
import { fmtOf, log, ratioOf, rotate, table, timed } from './lib/stats';

const SESSIONS_PATH = '/api/v1/Sessions';

async function idle(ctx: BenchContext): Promise<string[][]> {
	resetSandbox(ctx);
	// Distinct, older timestamps: see the note on sessions sharing the activation instant.
	const past = Date.now() - 60_000;
	for (let i = 0, at = past; i < 5; i++, at += 1000)
		ctx.sandbox.createSession({ name: `Bench idle ${i}`, createdAt: at, updatedAt: at });
	const poll = await idlePollCase(ctx, undefined);
	const polls = Math.max(ctx.runs, 3);
	const { node, raw } = await rotate(polls, { node: poll.ours, raw: poll.fetch });
	const [nodeMs, rawMs] = [node.map((m) => m.ms), raw.map((m) => m.ms)];
	const cells = [fmtOf(nodeMs), fmtOf(rawMs), fmtOf(ratioOf(nodeMs, rawMs), 2)];
	const requests = node.map((m) => m.requests);
	return [['idle poll', fmtOf(requests, 2), '1', `${polls}`, ...cells]];
}

async function burst(ctx: BenchContext, n: number): Promise<string[]> {
	resetSandbox(ctx);
	// Updates a day old: the trigger's settling window (2 s behind the service's Date
	// header) plays no part, every update is readable at once.
	const base = Date.now() - 86_400_000;
	for (let i = 0; i < n; i++) {
		const at = base + i * 7;
		ctx.sandbox.createSession({ name: `Bench burst ${i}`, createdAt: at, updatedAt: at });
	}
	const startFrom = new Date(base - 1000).toISOString();
	const floor = Math.ceil(n / 100);

	const drain = async () => {
		const harness = triggerHarness(ctx.engine, { options: { startFrom } });
		const seen = new Set<unknown>();
		let requests = 0;
		let polls = 0;
		let firstPollMs = Number.NaN;
		const start = performance.now();
		for (let guard = 0; guard < 20 + n / 100; guard++) {
			ctx.sandbox.clearRequests();
			const { ms, value } = await timed(() => harness.poll());
			if (value.error) throw value.error;
			if (value.items.length === 0) break;
			if (polls === 0) firstPollMs = ms;
			polls++;
			requests += countRequests(ctx.sandbox, SESSIONS_PATH);
			for (const item of value.items) {
				if (seen.has(item.json.sessionId)) throw new Error('an update was delivered twice');
				seen.add(item.json.sessionId);
			}
		}
		const totalMs = performance.now() - start;
		if (seen.size !== n) throw new Error(`the trigger delivered ${seen.size} of ${n} updates`);
		return { requests, polls, totalMs, firstPollMs };
	};
	const query = { updatedAfter: startFrom, sortBy: 'updatedAt', sortOrder: 'asc' };
	const raw = async () => {
		const sessions = await rawListAll(ctx.raw, query);
		if (sessions.length !== n) throw new Error(`raw read ${sessions.length} of ${n}`);
	};
	const contestants = { node: drain, raw: () => timed(raw) };
	const { node, raw: rawRuns } = await rotate(ctx.runs, contestants, true);
	const polls = node.map((r) => r.polls);
	const perFloor = node.map((r) => r.requests / floor);
	const totalMs = node.map((r) => r.totalMs);
	const rawMs = rawRuns.map((r) => r.ms);
	log(`trigger burst N=${n}: ${fmtOf(polls, 0)} polls, ${fmtOf(totalMs)} ms; raw ${fmtOf(rawMs)}`);
	return [
		`burst of ${n.toLocaleString('en-US')} updates`,
		`${fmtOf(perFloor, 2)} per ⌈N/100⌉`,
		'1.00 per ⌈N/100⌉',
		fmtOf(polls, 0),
		`${fmtOf(totalMs)} (first poll ${fmtOf(node.map((r) => r.firstPollMs))})`,
		fmtOf(rawMs),
		fmtOf(ratioOf(totalMs, rawMs), 2),
	];
}

/** The static data with `size` sessions in flight (two signers each), after the starting picture and a poll that emits. */
async function staticData(ctx: BenchContext, size: number, runs: number): Promise<string[]> {
	resetSandbox(ctx);
	const { sandbox } = ctx;
	sandbox.clock.freeze();
	const recipients = ['Ann', 'Bob'].map((name) => ({
		name: `${name} Signer`,
		email: `${name.toLowerCase()}@example.com`,
	}));
	const statuses = ['draft', 'pending', 'inProgress'] as const;
	const ids = Array.from({ length: size }, (_, i) => {
		const createdAt = sandbox.clock.now() - 3_600_000 + i;
		const status = statuses[i % 3];
		return sandbox.createSession({ name: `In flight ${i}`, status, recipients, createdAt })
			.sessionId;
	});
	sandbox.clock.advance(60_000);
	const trigger = triggerHarness(ctx.engine, {
		events: ['sessionCompleted', 'recipientStatusChanged'],
	});
	const poll = async () => {
		sandbox.clearRequests();
		const result = await trigger.poll();
		if (result.error) throw result.error;
		return result;
	};
	await poll(); // activation
	let pictureRequests = 0;
	for (let guard = 0; guard < 200; guard++) {
		pictureRequests += sandbox.requests.filter((r) => r.query.sortBy === 'createdAt').length;
		if (!trigger.nodeStaticData.picture) break;
		sandbox.clock.advance(60_000);
		await poll();
	}
	sandbox.clock.advance(60_000);
	// Ten sent sessions (not drafts: every third is one) get a signature.
	for (const id of ids.filter((_, i) => i % 3 !== 0).slice(0, 10)) sandbox.signRecipient(id);
	sandbox.clock.advance(5_000);
	const emitted = (await poll()).items.length;
	if (emitted !== 10) throw new Error(`expected 10 recipient items, got ${emitted}`);
	const text = JSON.stringify(trigger.nodeStaticData);
	const bytes = Buffer.byteLength(text);
	/** Median (min–max) of `runs` timings of `work`, 3 decimals. */
	const costOf = (work: () => unknown) =>
		fmtOf(
			Array.from({ length: runs }, () => timedSync(work)),
			3,
		);
	return [
		size.toLocaleString('en-US'),
		`${bytes.toLocaleString('en-US')} B (${(bytes / 1024).toFixed(1)} KiB)`,
		(bytes / size).toFixed(1),
		String(pictureRequests),
		costOf(() => JSON.stringify(trigger.nodeStaticData)),
		costOf(() => JSON.parse(text)),
	];
}

function timedSync(work: () => unknown): number {
	const start = performance.now();
	work();
	return performance.now() - start;
}

export async function benchTrigger(ctx: BenchContext, sizes: number[]): Promise<SectionResult> {
	const rows = await idle(ctx);
	const memoryRows: string[][] = [];
	const runs = ctx.smoke ? 3 : 41;
	for (const n of sizes) {
		rows.push(await burst(ctx, n));
		memoryRows.push(await staticData(ctx, n, runs));
	}
	return {
		title: '4. AirSign Trigger',
		markdown: [
			table(
				'case | List Sessions requests (node) | floor | polls | trigger wall time, all polls (ms) | raw fetch loop (ms) | trigger / raw',
				rows,
			),
			'',
			'Idle poll: one scheduler tick of an active workflow with nothing new (n8n-core `PollContext` + `PollTriggerExecutor`); raw: one `GET /Sessions?updatedAfter=…`. Burst: N sessions updated after the trigger\'s "Start From", distinct timestamps; the trigger is polled until a poll delivers nothing (that last, idle poll is not counted); every update must arrive exactly once. Raw: offset paging over the same `updatedAfter` query.',
			'',
			`The static data n8n stores for the trigger (Session Completed and Recipient Status Changed) with N sessions in flight, two signers each, after the starting picture (read in the "picture requests") and a poll that emits ten signatures; its \`JSON.stringify\` and \`JSON.parse\`, median (min–max) of ${runs} runs each (docs/trigger.md):`,
			'',
			table(
				'sessions in flight | static data | bytes per session | picture requests | stringify ms | parse ms',
				memoryRows,
			),
		].join('\n'),
	};
}
