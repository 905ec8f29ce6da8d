// Checks of the example workflows against the sandbox (a–c also in queue mode, e2e/scale.mts), each
// resolving a one-line summary. `runExample(name)` runs examples/<name>.json however the tier does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadExamples, type WorkflowWithId } from './fixtures.mts';
import { nodeOutput, type N8nRun } from './n8n.mts';
import type { sandboxClient } from './sandbox.mts';
import type { OutboxEmail, RequestLogEntry, Session } from '../../sandbox/index.ts';

export type SandboxClient = ReturnType<typeof sandboxClient>;
export type ExampleWorkflow = WorkflowWithId;

/** Runs examples/<name>.json however the tier does: whether it succeeded, the run, why not. */
export type RunExample = (name: string) => Promise<{ ok: boolean; run: N8nRun; failure?: string }>;

/** What every check of an example is given; `pdfPath` is the PDF the upload examples read. */
interface ExampleCheckInput {
	sandbox: SandboxClient;
	runExample: RunExample;
	pdfPath?: string;
}

// The JSON of the nodes' items, named by the fields each check reads.
type SessionItem = { sessionId: string; name: string; status: string };
/** An item of a node with Continue On Fail: the error in words, AirSign's description and code. */
type ErrorFields = { error?: string; description?: unknown; httpCode?: unknown };

export const EXAMPLE_CHECK_NAMES = {
	upload: 'a. upload: Read PDF from disk → Upload File; the sandbox holds the same bytes',
	send: 'b. list + send: Get Many (status draft) → Send Session; outbox = the complete drafts',
	errorPath:
		'c. error path: Send on a completed session → NOT_A_DRAFT item; the Set node after it ran',
	contractFromTemplate:
		'g. contract from template: a row → Create From Template (sent); one session from the template, two invitations (Jane, HR)',
	uploadWithCover:
		'h. upload + cover: Read PDF → Upload → Create (cover block document + the PDF, sent); one pending session with both files',
	remind:
		'i. remind: Get Many (pending for 3+ days) → Send Invitation (next signer); one reminder, to Mei Chen',
};

/** Runs the example; fails unless its execution succeeded. */
async function ranOk(runExample: RunExample, name: string): Promise<N8nRun> {
	const { ok, run, failure } = await runExample(name);
	assert.ok(ok, `execution failed: ${failure}`);
	return run;
}

const examples = loadExamples();
/** A parameter of a node of an example, as saved in examples/<name>.json. */
const exampleParameter = (name: string, nodeName: string, parameter: string) =>
	examples[name].nodes.find((n) => n.name === nodeName)!.parameters![parameter];

/** a. The upload example: `pdfPath` is the file its Read/Write Files node reads. */
export async function checkUploadExample({
	sandbox,
	runExample,
	pdfPath,
}: ExampleCheckInput & { pdfPath: string }): Promise<string> {
	const run = await ranOk(runExample, 'upload-pdf');
	const read = run.data.resultData.runData['Read PDF from disk'][0].data!.main![0]![0];
	assert.equal(read.binary?.data?.fileName, 'contract.pdf');
	const [out, ...more] = nodeOutput(run, 'Upload to AirSign') as { fileId: string }[];
	assert.equal(more.length, 0, 'one upload item');
	assert.match(String(out.fileId), /^[0-9a-f-]{36}$/, `fileId in ${JSON.stringify(out)}`);
	const stored = await sandbox.file(out.fileId);
	const onDisk = readFileSync(pdfPath);
	assert.equal(stored.fileName, 'contract.pdf');
	assert.equal(stored.sizeBytes, onDisk.length);
	assert.equal(stored.data, onDisk.toString('base64'), 'sandbox bytes differ from the PDF on disk');
	// The token came from n8n's preAuthentication (client credentials), not from a pasted token.
	const reqs: RequestLogEntry[] = await sandbox.requests();
	for (const [route, what] of [
		['/oidc/token', 'token fetch'],
		['/api/v1/File', '200 upload'],
	])
		assert.ok(
			reqs.some((r) => r.method === 'POST' && r.path === route && r.status === 200),
			`no ${what} in the sandbox log`,
		);
	return `fileId ${out.fileId}, ${onDisk.length} bytes identical, token via POST /oidc/token`;
}

/** b. Get Many (drafts) → Send: the demo drafts are cancelled and three known drafts created first. */
export async function checkSendDraftsExample({
	sandbox,
	runExample,
}: ExampleCheckInput): Promise<string> {
	for (const s of await sandbox.listSessions({ status: 'draft' }))
		await sandbox.patchSession(s.sessionId, { status: 'cancelled' });
	const draft = (name: string, ...recipients: { name: string; email?: string }[]) =>
		sandbox.createSession({ name: `e2e draft – ${name}`, status: 'draft', recipients });
	const ada = await draft('Ada', { name: 'Ada Lovelace', email: 'ada@example.com' });
	const duo = await draft(
		'Bob and Cy',
		{ name: 'Bob Builder', email: 'bob@example.com' },
		{ name: 'Cy Twombly', email: 'cy@example.com' },
	);
	const half = await draft('no email', { name: 'Dee Nomail' });
	await sandbox.clearOutbox();
	const drafts = [ada, duo, half].map((s) => s.sessionId).sort();

	const run = await ranOk(runExample, 'send-drafts');
	const found = nodeOutput(run, 'Find drafts') as SessionItem[];
	assert.deepEqual(
		found.map((s) => s.sessionId).sort(),
		drafts,
		'Get Many returned exactly the drafts',
	);
	assert.ok(found.every((s) => s.status === 'draft'));
	const sent = nodeOutput(run, 'Send draft') as (SessionItem & ErrorFields)[];
	assert.equal(sent.length, 3, `one Send output per draft: ${JSON.stringify(sent)}`);
	const failed = sent.filter((i) => i.error);
	assert.equal(failed.length, 1, `one error item: ${JSON.stringify(sent)}`);
	assert.match(failed[0].error!, /no name or no email \[INCOMPLETE_RECIPIENTS\]/);
	// Its pairing tells which draft failed: the incomplete one.
	const sendRun = run.data.resultData.runData['Send draft'][0].data!.main![0]!;
	const failedItem = sendRun.find((i) => i.json.error);
	// n8n writes { item: <index> }; a bare index is read as such
	const [paired] = [failedItem!.pairedItem!].flat();
	assert.equal(found[typeof paired === 'number' ? paired : paired.item].sessionId, half.sessionId);
	const okItems = sent.filter((i) => !i.error);
	assert.deepEqual(okItems.map((i) => i.sessionId).sort(), [ada.sessionId, duo.sessionId].sort());
	assert.ok(
		okItems.every((i) => i.status === 'pending'),
		`sent sessions are pending: ${JSON.stringify(okItems)}`,
	);

	assert.deepEqual(
		await outboxLines(sandbox),
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
export async function checkErrorPathExample({
	sandbox,
	runExample,
}: ExampleCheckInput): Promise<string> {
	const outboxBefore = (await sandbox.outbox()).length;
	const { ok, run, failure } = await runExample('send-with-continue-on-fail');
	assert.ok(ok, `the workflow must finish despite the failed send: ${failure}`);
	const [target] = nodeOutput(run, 'Find a completed session') as SessionItem[];
	assert.equal(target.status, 'completed');
	const [sendOut] = nodeOutput(run, 'Try to send it') as ErrorFields[];
	assert.equal(sendOut.error, 'The session is not a draft, so it cannot be sent [NOT_A_DRAFT]');
	assert.match(String(sendOut.description), /sent already|completed/);
	assert.equal(Number(sendOut.httpCode), 400, `httpCode in ${JSON.stringify(sendOut)}`);
	const report = nodeOutput(run, 'Report outcome') as { outcome: string }[];
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

/** The outbox as "<sessionId> <to>[ reminder]" lines, sorted. */
async function outboxLines(sandbox: SandboxClient): Promise<string[]> {
	const outbox: OutboxEmail[] = await sandbox.outbox();
	return outbox.map((m) => `${m.sessionId} ${m.to}${m.reminder ? ' reminder' : ''}`).sort();
}

/** g. A row → Create From Template with the demo "Employment contract", mapped and sent. */
export async function checkContractFromTemplateExample({
	sandbox,
	runExample,
}: ExampleCheckInput): Promise<string> {
	// a resource locator: { mode, value }
	const templateId = (
		exampleParameter('contract-from-template', 'Contract from template', 'templateId') as {
			value: string;
		}
	).value;
	await sandbox.clearOutbox();
	const run = await ranOk(runExample, 'contract-from-template');
	const [out, ...more] = nodeOutput(run, 'Contract from template') as SessionItem[];
	assert.equal(more.length, 0, 'one session for one row');
	assert.equal(out.name, 'Employment contract – Jane Citizen');
	assert.equal(out.status, 'pending', `sent at once: ${JSON.stringify(out)}`);
	const session: Session = await sandbox.getSession(out.sessionId);
	assert.equal(session.templateId, templateId, 'created from the demo template');
	assert.equal(session.status, 'pending');
	assert.deepEqual(
		session.recipients.map((r) => `${r.name} <${r.email}>`),
		['Jane Citizen <jane.citizen@example.com>', 'HR Manager <hr@example.com>'],
		'the roles filled from the row and the fixed HR recipient',
	);
	assert.deepEqual(
		await outboxLines(sandbox),
		[`${out.sessionId} hr@example.com`, `${out.sessionId} jane.citizen@example.com`],
		'exactly one invitation to each of the two recipients',
	);
	return `session ${out.sessionId} from template ${templateId}, pending; invitations to jane.citizen@ and hr@`;
}

/** h. Read PDF → Upload → Create with a cover block document and the uploaded PDF, sent. */
export async function checkUploadWithCoverExample({
	sandbox,
	runExample,
	pdfPath,
}: ExampleCheckInput & { pdfPath: string }): Promise<string> {
	await sandbox.clearOutbox();
	const run = await ranOk(runExample, 'upload-and-send-with-cover');
	const [uploaded] = nodeOutput(run, 'Upload the PDF') as { fileId: string }[];
	assert.match(String(uploaded.fileId), /^[0-9a-f-]{36}$/, `fileId in ${JSON.stringify(uploaded)}`);
	const [out, ...more] = nodeOutput(run, 'Cover document + PDF, sent') as SessionItem[];
	assert.equal(more.length, 0, 'one session');
	const session: Session = await sandbox.getSession(out.sessionId);
	assert.equal(session.status, 'pending', 'sent at once');
	assert.equal(session.name, 'Supply agreement – Acme Pty Ltd');
	assert.equal(session.files.length, 2, `two files: ${JSON.stringify(session.files)}`);
	const [cover, pdf] = session.files;
	assert.equal(cover.type, 'blocks', 'the cover document comes first, as a block document');
	assert.equal(cover.fileName, 'Supply agreement.pdf');
	const coverText = JSON.stringify(cover.document);
	assert.match(coverText, /signatureBlock/, 'the cover document holds the signature field');
	assert.ok(coverText.includes('contract.pdf'), 'the cover letter names the uploaded file');
	assert.deepEqual(
		{ type: pdf.type, fileId: pdf.fileId },
		{ type: 'uploadedPdf', fileId: uploaded.fileId },
		'the uploaded PDF is attached',
	);
	const stored = await sandbox.file(uploaded.fileId);
	assert.equal(stored.data, readFileSync(pdfPath).toString('base64'), 'the bytes on disk');
	assert.deepEqual(
		await outboxLines(sandbox),
		[`${out.sessionId} jane.citizen@example.com`],
		'one invitation, to the one recipient',
	);
	return `session ${out.sessionId} pending with files [blocks "${cover.fileName}", uploadedPdf ${pdf.fileId}]; invitation to jane.citizen@`;
}

/**
 * i. Sessions pending or in progress and quiet for three days → a reminder to each one's next
 * signer. Of the sandbox's demo data only "Supplier terms – Mei Chen" (pending, updated 4 days
 * ago less an hour; Mei signs first) is that old: the others were updated 3 days ago less an hour
 * or later, and what the other checks create is new.
 */
export async function checkRemindExample({
	sandbox,
	runExample,
}: ExampleCheckInput): Promise<string> {
	await sandbox.clearOutbox();
	const run = await ranOk(runExample, 'remind-pending-signers');
	const found = nodeOutput(run, 'Sessions pending for 3+ days') as SessionItem[];
	assert.deepEqual(
		found.map((s) => s.name),
		['Supplier terms – Mei Chen'],
		'the one session quiet for three days',
	);
	const reminded = nodeOutput(run, 'Remind the next signer') as (ErrorFields & {
		recipientEmail: string;
	})[];
	assert.equal(reminded.length, 1, `one reminder item: ${JSON.stringify(reminded)}`);
	assert.equal(reminded[0].error, undefined, `no error item: ${JSON.stringify(reminded[0])}`);
	assert.equal(reminded[0].recipientEmail, 'mei.chen@example.com');
	const outbox: OutboxEmail[] = await sandbox.outbox();
	assert.deepEqual(
		outbox.map((m) => ({ to: m.to, name: m.name, sessionId: m.sessionId, reminder: m.reminder })),
		[
			{
				to: 'mei.chen@example.com',
				name: 'Mei Chen',
				sessionId: found[0].sessionId,
				reminder: true,
			},
		],
		'exactly one reminder, to Mei Chen',
	);
	return `session ${found[0].sessionId} ("${found[0].name}"): one reminder to mei.chen@example.com`;
}

/** The single-process tier's example checks, in their order (i last: check f then moves the clock). */
export const EXAMPLE_CHECKS: [
	string,
	(input: ExampleCheckInput & { pdfPath: string }) => Promise<string>,
][] = [
	[EXAMPLE_CHECK_NAMES.upload, checkUploadExample],
	[EXAMPLE_CHECK_NAMES.send, checkSendDraftsExample],
	[EXAMPLE_CHECK_NAMES.errorPath, checkErrorPathExample],
	[EXAMPLE_CHECK_NAMES.contractFromTemplate, checkContractFromTemplateExample],
	[EXAMPLE_CHECK_NAMES.uploadWithCover, checkUploadWithCoverExample],
	[EXAMPLE_CHECK_NAMES.remind, checkRemindExample],
];
