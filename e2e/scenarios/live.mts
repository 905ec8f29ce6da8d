// The live track of e2e/scenarios.mts: `n8n start` with the published trigger example. Checks e
// (loaded types and icons) and e2 (the output schemas served as the editor asks), d (exactly one
// execution per completed session, none repeated by the next poll; with --scheduler d alone, on
// the database-backed poll scheduler), then j (e2e/scenarios/completedFetch.mts).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { sandboxCredential } from '../lib/fixtures.mts';
import {
	PACKAGE_NAME,
	activateWorkflow,
	importCredential,
	importWorkflow,
	installedPackageDir,
	listExecutions,
	n8nFetch,
	queryDb,
	readTypeFile,
	setupOwner,
	waitForTypes,
} from '../lib/n8n.mts';
import { pollUntil } from '../lib/checks.mts';
import { outputSchemas } from '../lib/outputSchemas.mts';
import { sleep } from '../lib/proc.mts';
import type { RequestLogEntry } from '../../sandbox/index.ts';
import {
	assertDeliveredOnce,
	assertNoRepeatOnNextPoll,
	runTrack,
	type ScenarioContext,
} from './common.mts';
import { checkCompletedFetchSession } from './completedFetch.mts';

const SCHEMA_DIR = new URL('../../nodes/AirSign/__schema__/', import.meta.url);

// Check d's bound from n8n's readiness, a hang detector: at the slowest ~2 polls to arrive (the
// settle window may defer a change by one) and one more to show no repeat, with room for a busy
// machine (and for the scheduler's outbox, which activates published workflows within 15 s).
const liveTimeoutMs = (scheduler: boolean) => (scheduler ? 330_000 : 300_000);

/** An entry of n8n's type files (types/nodes.json, types/credentials.json): the fields e reads. */
interface TypeEntry {
	name: string;
	icon?: string;
	iconUrl?: { light: string; dark: string };
}

/** Runs the live track (checks e, e2, d, j; d alone with --scheduler) with the package `tarball`. */
export async function liveTrack(ctx: ScenarioContext, tarball: string): Promise<void> {
	const { examples, log, check, step, scheduler, liveEnv } = ctx;
	const LIVE_TIMEOUT_MS = liveTimeoutMs(scheduler);
	const wf = examples['notify-on-completed'];
	const triggerName = wf.nodes.find((n) => n.type === `${PACKAGE_NAME}.airSignTrigger`)?.name;
	await runTrack(ctx, 'live', tarball, async ({ sandbox, userFolder, startN8n }) => {
		await step('live: credential + trigger workflow(s) imported, workflow activated', async () => {
			await importCredential(userFolder, sandboxCredential(sandbox.url), { env: liveEnv });
			// check j's workflow too, activated only after check d (in the running n8n)
			await importWorkflow(
				userFolder,
				scheduler ? [wf] : [wf, examples['completed-fetch-session']],
				{ env: liveEnv },
			);
			await activateWorkflow(userFolder, wf.id, { env: liveEnv });
		});
		const instance = await startN8n(liveEnv);
		const deadline = Date.now() + LIVE_TIMEOUT_MS;
		const { cookie } = await setupOwner(instance.url);

		if (!scheduler)
			await check('e. n8n loaded both nodes and the credential, icons served', async () => {
				const nodes = await waitForTypes(userFolder, 'nodes', (l: TypeEntry[]) =>
					l.some((n) => n.name === `${PACKAGE_NAME}.airSignTrigger`),
				);
				const viaHttp: TypeEntry[] = await (
					await n8nFetch(`${instance.url}/types/nodes.json`, {
						headers: { cookie, 'browser-id': 'e2e' },
					})
				).json();
				const creds: TypeEntry[] = readTypeFile(userFolder, 'credentials');
				const ours = viaHttp.filter((n) => n.name.startsWith(`${PACKAGE_NAME}.`));
				assert.equal(nodes.length, viaHttp.length);
				for (const name of ['airSign', 'airSignTrigger'])
					assert.ok(
						ours.some((n) => n.name === `${PACKAGE_NAME}.${name}`),
						`${name} not loaded: ${ours.map((n) => n.name)}`,
					);
				const cred = creds.find((c) => c.name === 'airSignApi');
				assert.ok(cred, 'credential type airSignApi not loaded');
				const served: string[] = [];
				for (const entry of [...ours, cred]) {
					assert.ok(
						entry.iconUrl?.light && entry.iconUrl?.dark,
						`${entry.name} has no light/dark iconUrl: ${JSON.stringify(entry.iconUrl ?? entry.icon)}`,
					);
					for (const icon of [entry.iconUrl.light, entry.iconUrl.dark]) {
						const res = await n8nFetch(`${instance.url}/${icon}`);
						const body = await res.text();
						assert.equal(res.status, 200, `GET /${icon}`);
						assert.match(
							res.headers.get('content-type') ?? '',
							/^image\/svg\+xml/,
							`content type of /${icon}`,
						);
						assert.match(body, /<svg[\s>]/, `/${icon} is not an SVG`);
						served.push(icon);
					}
				}
				return `${ours.map((n) => n.name.split('.')[1]).join(', ')} + credential airSignApi; ${new Set(served).size} icon URLs → 200 image/svg+xml`;
			});

		if (!scheduler)
			await check('e2. output schemas served as the editor asks for them', async () => {
				const installed = installedPackageDir(userFolder);
				const schemas = outputSchemas(installed);
				// Every schema the repository holds (one per operation, one for the trigger) ships.
				const held = readdirSync(SCHEMA_DIR, { recursive: true }).filter((f) =>
					String(f).endsWith('.json'),
				).length;
				assert.equal(
					schemas.length,
					held,
					`output schemas in the package (the repository has ${held})`,
				);
				for (const { url, schema } of schemas) {
					const res = await n8nFetch(`${instance.url}${url}`);
					assert.equal(res.status, 200, `GET ${url}`);
					assert.deepEqual(await res.json(), schema, `GET ${url}`);
				}
				const trigger = schemas.find((s) => s.file === 'v1.0.0.json');
				assert.ok(
					trigger && trigger.schema.properties!.recipient.properties!.status,
					'recipient.status',
				);
				return `${schemas.length} schemas → 200, as in the package (e.g. ${trigger.url})`;
			});

		await check(
			`d. active trigger${scheduler ? ' on the database-backed poll scheduler (durable cursors)' : ''}: one completed session → exactly one execution, no repeat on the next poll`,
			async () => {
				const listRequests = async () =>
					(await sandbox.requests()).filter(
						(r: RequestLogEntry) => r.method === 'GET' && r.path === '/api/v1/Sessions',
					);
				// 1. The activation poll (n8n polls once when it activates the workflow) set the cursor.
				const t0 = Date.now();
				await pollUntil(
					async () => (await listRequests()).length > 0,
					() => 'the trigger never polled the sandbox after activation',
					{ timeoutMs: deadline - Date.now(), everyMs: 250 },
				);
				log(`live: activation poll seen ${((Date.now() - t0) / 1000).toFixed(1)} s after ready`);
				await sleep(1_500); // let the poll's cursor be saved
				assert.equal(
					(await listExecutions(instance.url, cookie, { workflowId: wf.id })).length,
					0,
					'the activation poll must deliver nothing',
				);

				// 2. A session gets completed in AirSign.
				const session = await sandbox.createSession({
					name: 'e2e trigger – signed contract',
					status: 'inProgress',
					recipients: [{ name: 'Eve Signer', email: 'eve@example.com' }],
				});
				await sandbox.patchSession(session.sessionId, { status: 'completed' });
				const completedAt = Date.now();
				// 1: the completion lies between the activation poll and the first scheduled one, the
				// window the scheduler's dropped activation state would lose (see the trigger's origin).
				const pollsBefore = (await listRequests()).length;
				log(
					`live: session ${session.sessionId} completed after ${pollsBefore} poll(s); waiting for the next minute poll`,
				);

				// 3. Exactly one execution carrying it.
				const watched = { listRequests, instance, cookie, workflowId: wf.id, deadline };
				const { exec, runData } = await assertDeliveredOnce({
					...watched,
					triggerName: triggerName!,
					sessionId: session.sessionId,
				});
				const arrivedS = (Date.now() - completedAt) / 1000;
				const [delivered] = runData[triggerName!][0].data!.main![0]!.map((i) => i.json);
				assert.equal(delivered.status, 'completed');
				// the Set node's message
				const [note] = runData['Compose notification'][0].data!.main![0]!.map(
					(i) => i.json as { sessionId: string; message: string },
				);
				assert.equal(note.sessionId, session.sessionId);
				assert.match(
					note.message,
					/^Signed: "e2e trigger – signed contract" was completed on .+ by Eve Signer\.$/,
				);
				log(
					`live: execution ${exec.id} arrived ${arrivedS.toFixed(1)} s after completion: ${note.message}`,
				);

				// 4. Through one more poll: no repeat.
				await assertNoRepeatOnNextPoll({ ...watched, exec });
				const dbRows = await queryDb(
					userFolder,
					'select id, mode, status from execution_entity where workflowId = ?',
					[wf.id],
				);
				assert.equal(dbRows.length, 1, `SQLite execution_entity: ${JSON.stringify(dbRows)}`);
				const [wfRow] = await queryDb(
					userFolder,
					'select staticData from workflow_entity where id = ?',
					[wf.id],
				);
				log(`live: trigger state in workflow_entity.staticData: ${wfRow.staticData}`);
				let where = 'workflow static data';
				if (scheduler) {
					// Durable cursors: the node's state is in poller_state, committed by the scheduler.
					const rows = await queryDb(
						userFolder,
						'select nodeId, cursor from poller_state where workflowId = ?',
						[wf.id],
					);
					log(`live: poller_state: ${JSON.stringify(rows)}`);
					assert.equal(rows.length, 1, 'one poller_state row: the scheduler ran the polls');
					assert.match(
						String(rows[0].cursor),
						/"cursor":"/,
						'the trigger state is in poller_state',
					);
					where = 'poller_state';
				}
				const polls = (await listRequests()).length;
				return `execution ${exec.id} (trigger, success) ${arrivedS.toFixed(0)} s after completion (completed after poll ${pollsBefore}); ${polls} List Sessions requests in all, still 1 execution after the next poll; state in ${where}`;
			},
		);

		if (!scheduler)
			await check(
				'j. completed → fetch session: a session signed to completion → exactly one execution, whose Get output is the session with each recipient signed',
				() => checkCompletedFetchSession(ctx, { sandbox, instance, cookie }),
			);
	});
}
