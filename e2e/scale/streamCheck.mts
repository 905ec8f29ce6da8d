// The stream check: steps A–E, then every state made must have arrived exactly once, each trigger
// execution run by a worker.
import assert from 'node:assert/strict';
import { ctx, startWorker } from './cluster.mts';
import { deliveredCounts, deliveries } from './deliveries.mts';
import { examplesPhase, type ExampleIds, type RanExample } from './examples.mts';
import { facts } from './report.mts';
import { expected, latest, waitDelivered } from './stream.mts';
import { stepA, stepB, stepC, stepD, stepE, stepLog, workerKill } from './streamSteps.mts';

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

export async function streamCheck({
	short,
	ids,
	pdfPath,
	onExamplesRan,
}: {
	short: boolean;
	ids: ExampleIds;
	pdfPath: string;
	onExamplesRan: (ran: RanExample[]) => void;
}): Promise<string> {
	const a = await stepA();
	// the examples run on the workers while step A waits for its poll
	const examplesDone = examplesPhase(ids, pdfPath).then(onExamplesRan);
	await waitDelivered(a);
	stepLog.push({ name: 'A', note: `30 states (10 one by one, 20 at once)` });
	await examplesDone;
	await stepB();
	if (!short) {
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
		(d) => d.status !== 'success' || d.mode !== 'trigger' || !/^worker-\d/.test(String(d.process)),
	);
	assert.deepEqual(
		bad.map((d) => `${d.id} ${d.mode} ${d.status} on ${d.process}`),
		[],
		'every trigger execution: mode trigger, success, run by a worker',
	);
	return `${expected.size} states → ${acc.items} items in ${execs.length} executions, 0 lost, 0 repeated; main killed ${ctx.mainStarts - 1}×, worker killed 1×`;
}
