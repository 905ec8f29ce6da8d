// Checks a–c of the example workflows against the sandbox, shared by the single-process tier
// (e2e/scenarios.mjs: `n8n execute`) and the queue-mode tier (e2e/scale.mjs: the editor's REST run
// on a worker). `runExample(name)` runs examples/<name>.json however the tier does and resolves
// { ok, run, failure }: `run.data.resultData.runData` as in executeWorkflow(). Each check asserts on
// n8n's output and the sandbox's state, and resolves a one-line summary.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nodeOutput } from './n8n.mjs';

export const EXAMPLE_CHECK_NAMES = {
	upload: 'a. upload: Read PDF from disk → Upload File; the sandbox holds the same bytes',
	send: 'b. list + send: Get Many (status draft) → Send Session; outbox = the complete drafts',
	errorPath:
		'c. error path: Send on a completed session → NOT_A_DRAFT item; the Set node after it ran',
};

/** a. The upload example: `pdfPath` is the file its Read/Write Files node reads. */
export async function checkUploadExample({ sandbox, runExample, pdfPath }) {
	const { ok, run, failure } = await runExample('upload-pdf');
	assert.ok(ok, `execution failed: ${failure}`);
	const read = run.data.resultData.runData['Read PDF from disk'][0].data.main[0][0];
	assert.equal(read.binary?.data?.fileName, 'contract.pdf');
	const [out, ...more] = nodeOutput(run, 'Upload to AirSign');
	assert.equal(more.length, 0, 'one upload item');
	assert.match(String(out.fileId), /^[0-9a-f-]{36}$/, `fileId in ${JSON.stringify(out)}`);
	const stored = await sandbox.file(out.fileId);
	const onDisk = readFileSync(pdfPath);
	assert.equal(stored.fileName, 'contract.pdf');
	assert.equal(stored.sizeBytes, onDisk.length);
	assert.equal(stored.data, onDisk.toString('base64'), 'sandbox bytes differ from the PDF on disk');
	// The token came from n8n's preAuthentication (client credentials), not from a pasted token.
	const reqs = await sandbox.requests();
	assert.ok(
		reqs.some((r) => r.method === 'POST' && r.path === '/oidc/token' && r.status === 200),
		'no token fetch in the sandbox log',
	);
	assert.ok(
		reqs.some((r) => r.method === 'POST' && r.path === '/api/v1/File' && r.status === 200),
		'no 200 upload in the sandbox log',
	);
	return `fileId ${out.fileId}, ${onDisk.length} bytes identical, token via POST /oidc/token`;
}

/** b. Get Many (drafts) → Send: the demo drafts are cancelled and three known drafts created first. */
export async function checkSendDraftsExample({ sandbox, runExample }) {
	// Exact starting point: the demo drafts are cancelled, then three known drafts are created.
	for (const s of await sandbox.listSessions({ status: 'draft' }))
		await sandbox.patchSession(s.sessionId, { status: 'cancelled' });
	const ada = await sandbox.createSession({
		name: 'e2e draft – Ada',
		status: 'draft',
		recipients: [{ name: 'Ada Lovelace', email: 'ada@example.com' }],
	});
	const duo = await sandbox.createSession({
		name: 'e2e draft – Bob and Cy',
		status: 'draft',
		recipients: [
			{ name: 'Bob Builder', email: 'bob@example.com' },
			{ name: 'Cy Twombly', email: 'cy@example.com' },
		],
	});
	const half = await sandbox.createSession({
		name: 'e2e draft – no email',
		status: 'draft',
		recipients: [{ name: 'Dee Nomail' }],
	});
	await sandbox.clearOutbox();
	const drafts = [ada, duo, half].map((s) => s.sessionId).sort();

	const { ok, run, failure } = await runExample('send-drafts');
	assert.ok(ok, `execution failed: ${failure}`);
	const found = nodeOutput(run, 'Find drafts');
	assert.deepEqual(
		found.map((s) => s.sessionId).sort(),
		drafts,
		'Get Many returned exactly the drafts',
	);
	assert.ok(found.every((s) => s.status === 'draft'));
	const sent = nodeOutput(run, 'Send draft');
	assert.equal(sent.length, 3, `one Send output per draft: ${JSON.stringify(sent)}`);
	const failed = sent.filter((i) => i.error);
	assert.equal(failed.length, 1, `one error item: ${JSON.stringify(sent)}`);
	assert.match(failed[0].error, /no name or no email \[INCOMPLETE_RECIPIENTS\]/);
	// Its pairing tells which draft failed: the incomplete one.
	const sendRun = run.data.resultData.runData['Send draft'][0].data.main[0];
	const failedItem = sendRun.find((i) => i.json.error);
	assert.equal(
		found[failedItem.pairedItem.item ?? failedItem.pairedItem].sessionId,
		half.sessionId,
	);
	const okItems = sent.filter((i) => !i.error);
	assert.deepEqual(okItems.map((i) => i.sessionId).sort(), [ada.sessionId, duo.sessionId].sort());
	assert.ok(
		okItems.every((i) => i.status === 'pending'),
		`sent sessions are pending: ${JSON.stringify(okItems)}`,
	);

	const outbox = await sandbox.outbox();
	assert.deepEqual(
		outbox.map((m) => `${m.sessionId} ${m.to}`).sort(),
		[
			`${ada.sessionId} ada@example.com`,
			`${duo.sessionId} bob@example.com`,
			`${duo.sessionId} cy@example.com`,
		].sort(),
		'outbox = one invitation per recipient of the complete drafts',
	);
	assert.equal(
		(await sandbox.getSession(half.sessionId)).status,
		'draft',
		'the incomplete draft stays a draft',
	);
	return `3 drafts found, 2 sent (3 invitations in the outbox), 1 error item INCOMPLETE_RECIPIENTS`;
}

/** c. Send on a completed session with Continue On Fail: the NOT_A_DRAFT item reaches the Set node. */
export async function checkErrorPathExample({ sandbox, runExample }) {
	const outboxBefore = (await sandbox.outbox()).length;
	const { ok, run, failure } = await runExample('send-with-continue-on-fail');
	assert.ok(ok, `the workflow must finish despite the failed send: ${failure}`);
	const [target] = nodeOutput(run, 'Find a completed session');
	assert.equal(target.status, 'completed');
	const [sendOut] = nodeOutput(run, 'Try to send it');
	assert.equal(sendOut.error, 'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]');
	assert.match(String(sendOut.description), /sent already|completed/);
	assert.equal(Number(sendOut.httpCode), 400, `httpCode in ${JSON.stringify(sendOut)}`);
	const report = nodeOutput(run, 'Report outcome');
	assert.equal(report.length, 1);
	assert.equal(
		report[0].outcome,
		'not sent: The session is not a draft, so it cannot be sent [NOT_A_DRAFT]',
	);
	assert.equal(run.data.resultData.lastNodeExecuted, 'Report outcome');
	assert.equal((await sandbox.getSession(target.sessionId)).status, 'completed');
	assert.equal((await sandbox.outbox()).length, outboxBefore, 'nothing was sent');
	return `session ${target.sessionId}: "${report[0].outcome}"`;
}
