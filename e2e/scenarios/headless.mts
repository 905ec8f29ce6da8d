// The headless track of e2e/scenarios.mts: `n8n execute` of the examples against the track's
// sandbox, checks a, b, c, g, h, i (e2e/lib/examples.mts), then f: a client-credentials token that
// expired between two runs is renewed. It runs beside the other tracks' `n8n start` in the same
// user folder, on a database of its own: n8n's SQLite driver waits at most a second for another
// process's write lock, too short on a busy machine.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLE_CHECKS, type RunExample } from '../lib/examples.mts';
import {
	SANDBOX_CREDENTIAL_ID,
	SANDBOX_CREDENTIAL_NAME,
	chainWorkflow,
	samplePdf,
	sandboxCredential,
	withPdfPath,
} from '../lib/fixtures.mts';
import {
	PACKAGE_NAME,
	executeWorkflow,
	importCredential,
	importWorkflow,
	nodeOutput,
} from '../lib/n8n.mts';
import type { RequestLogEntry } from '../../sandbox/index.ts';
import { SESSIONS, type ScenarioTrack } from './common.mts';

/** Manual Trigger → AirSign Get Many (Limit 5): one List Sessions request per run. */
const TOKEN_WORKFLOW = chainWorkflow(
	{ id: 'e2eTokenRenewal1', name: 'e2e: list sessions (token renewal)', active: false },
	[
		{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, parameters: {} },
		{
			name: 'List sessions',
			type: `${PACKAGE_NAME}.airSign`,
			typeVersion: 1,
			parameters: { resource: 'session', operation: 'getMany', returnAll: false, limit: 5 },
			credentials: { airSignApi: { id: SANDBOX_CREDENTIAL_ID, name: SANDBOX_CREDENTIAL_NAME } },
		},
	],
	(n) => `6d0c1f2a-0000-4000-8000-00000000000${n}`,
);

/** The headless track's checks (a, b, c, g, h, i, f). */
export const headlessTrack: ScenarioTrack = {
	name: 'headless',
	label: 'headless track setup (a, b, c, f, g, h, i)',
	examples: [
		'upload-pdf',
		'send-drafts',
		'send-with-continue-on-fail',
		'contract-from-template',
		'upload-and-send-with-cover',
		'remind-pending-signers',
	],
	async run({ examples, check, step }, { sandbox, userFolder }) {
		const filesDir = path.join(userFolder, 'n8n-files');
		// n8n 2.x: Read/Write Files from Disk may only touch N8N_RESTRICT_FILE_ACCESS_TO (default ~/.n8n-files).
		const env = { N8N_RESTRICT_FILE_ACCESS_TO: filesDir, DB_SQLITE_DATABASE: 'headless.sqlite' };
		mkdirSync(filesDir, { recursive: true });
		const pdfPath = path.join(filesDir, 'contract.pdf');
		writeFileSync(pdfPath, samplePdf('AirSign e2e contract'));
		await step('headless: credential imported (client credentials → sandbox)', () =>
			importCredential(userFolder, sandboxCredential(sandbox.url), { env }),
		);
		// the examples run headless, the two that read the PDF pointed at this track's copy
		const headless = headlessTrack.examples.map((name) => withPdfPath(examples[name], pdfPath));
		await step(`headless: ${headless.length} example workflows + a list workflow imported`, () =>
			importWorkflow(userFolder, [...headless, TOKEN_WORKFLOW], { env }),
		);

		const runExample: RunExample = (name) =>
			executeWorkflow(userFolder, examples[name].id, { env });
		for (const [name, run] of EXAMPLE_CHECKS)
			await check(name, () => run({ sandbox, runExample, pdfPath }));

		await check(
			'f. token renewal: the stored client-credentials token expired between two runs; n8n fetched a new one and the call succeeded',
			async () => {
				const tokenFetches = (reqs: RequestLogEntry[]) =>
					reqs.filter((r) => r.method === 'POST' && r.path === '/oidc/token');
				const lines = (reqs: RequestLogEntry[]) =>
					reqs.map((r) => `${r.method} ${r.path} ${r.status}`);
				// a–c and g–i ran in six processes on one token: n8n keeps it with the credential.
				assert.equal(tokenFetches(await sandbox.requests()).length, 1, 'one token for a–c, g–i');
				// The sandbox's tokens live one hour on its clock: move that clock past it.
				await sandbox.clock({ advanceMs: 61 * 60_000 });
				await sandbox.clearRequests();
				const expired = await executeWorkflow(userFolder, TOKEN_WORKFLOW.id, { env });
				assert.ok(expired.ok, `the run after the expiry failed: ${expired.failure}`);
				assert.ok(nodeOutput(expired.run, 'List sessions').length > 0, 'sessions listed');
				const reqs = await sandbox.requests();
				const line = lines(reqs);
				const fetches = tokenFetches(reqs);
				assert.equal(fetches.length, 1, `one new token: ${line.join(', ')}`);
				assert.equal(fetches[0].status, 200);
				const first401 = reqs.findIndex((r) => r.path === SESSIONS && r.status === 401);
				assert.ok(first401 >= 0, `the old token was refused first: ${line.join(', ')}`);
				assert.ok(reqs.indexOf(fetches[0]) > first401, `token fetched after the 401: ${line}`);
				assert.deepEqual(line.at(-1), `GET ${SESSIONS} 200`, `then listed: ${line.join(', ')}`);
				// The new token was stored with the credential: the next run needs none.
				await sandbox.clearRequests();
				const again = await executeWorkflow(userFolder, TOKEN_WORKFLOW.id, { env });
				assert.ok(again.ok, `the next run failed: ${again.failure}`);
				const next = lines(await sandbox.requests());
				assert.deepEqual(next, [`GET ${SESSIONS} 200`], 'the renewed token was kept');
				return `after the expiry: ${line.join(' → ')}; next run: ${next.join(', ')}`;
			},
		);
	},
};
