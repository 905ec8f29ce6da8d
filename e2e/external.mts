// The end-to-end checks against an n8n this tier did NOT install or start (e2e/README.md, "External
// n8n"): `install` puts the packed package into the n8n's nodes folder before it starts (n8n loads
// it from there whatever N8N_UNVERIFIED_PACKAGES_ENABLED says); `run` logs in (owner or API key),
// starts a sandbox here, and checks through Webhook-triggered workflows only, then removes them.
//
//   npx tsx e2e/external.mts install --nodes-dir <dir>
//   npx tsx e2e/external.mts run --url <n8n URL> (--email <e> --password <p> [--setup-owner] | --api-key <k>)
//                              [--sandbox-host <host n8n reaches this machine by>]
// Every option also comes from the environment (AIRSIGN_E2E_N8N_URL, …: see `values` below).
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import {
	getFreePort,
	installPackageIntoN8n,
	login,
	n8nFetch,
	postToWebhook,
	packPackage,
	PACKAGE_NAME,
	setupOwner,
} from './lib/n8n.mts';
import { chainWorkflow, sandboxCredential, type ChainNode } from './lib/fixtures.mts';
import { startSandboxProcess } from './lib/sandbox.mts';
import { createChecks, pollUntil, printResults } from './lib/checks.mts';

const { positionals, values } = parseArgs({
	allowPositionals: true,
	options: {
		'nodes-dir': { type: 'string', default: process.env.AIRSIGN_E2E_N8N_NODES_DIR },
		url: { type: 'string', default: process.env.AIRSIGN_E2E_N8N_URL },
		email: { type: 'string', default: process.env.AIRSIGN_E2E_N8N_EMAIL },
		password: { type: 'string', default: process.env.AIRSIGN_E2E_N8N_PASSWORD },
		'api-key': { type: 'string', default: process.env.AIRSIGN_E2E_N8N_API_KEY },
		'setup-owner': { type: 'boolean', default: false },
		'sandbox-host': {
			type: 'string',
			default: process.env.AIRSIGN_E2E_SANDBOX_HOST ?? '127.0.0.1',
		},
		'ready-timeout': { type: 'string', default: '180' },
	},
});
const command = positionals[0];

function fail(message: string): never {
	console.error(`[external] ${message}`);
	process.exit(2);
}

if (command === 'install') await install();
else if (command === 'run') process.exit((await run()) ? 0 : 1);
else fail('usage: npx tsx e2e/external.mts install --nodes-dir <dir> | run --url <n8n URL> …');

async function install() {
	const nodesDir = values['nodes-dir'];
	if (!nodesDir) fail('install: --nodes-dir (or AIRSIGN_E2E_N8N_NODES_DIR) is required');
	const { tarball } = await packPackage();
	try {
		const packageDir = await installPackageIntoN8n(null, tarball, {
			nodesDir: path.resolve(nodesDir),
		});
		console.log(`[external] ${PACKAGE_NAME} installed in ${packageDir}; (re)start n8n to load it`);
	} finally {
		rmSync(path.dirname(tarball), { recursive: true, force: true });
	}
}

/**
 * n8n's REST API with an owner's cookie, or its public API with an API key: the same calls
 * (credentials, workflows, activation), each resolving the answer's data.
 */
async function connect(url: string) {
	const apiKey = values['api-key'];
	let cookie = '';
	if (!apiKey) {
		const { email, password } = values;
		if (!email || !password) fail('run: give --email and --password, or --api-key');
		try {
			({ cookie } = await login(url, { email, password }));
		} catch (error) {
			if (!values['setup-owner']) throw error;
			({ cookie } = await setupOwner(url, { email, password }));
		}
	}
	const base = apiKey ? '/api/v1' : '/rest';
	const call = async <T,>(method: string, p: string, body?: unknown): Promise<T> => {
		const res = await n8nFetch(`${url}${base}${p}`, {
			method,
			headers: {
				...(apiKey ? { 'x-n8n-api-key': apiKey } : { cookie, 'browser-id': 'e2e' }),
				'content-type': 'application/json',
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok) throw new Error(`${method} ${base}${p}: ${res.status} ${text.slice(0, 500)}`);
		// the REST API wraps its answers in { data }
		return (text ? (apiKey ? JSON.parse(text) : JSON.parse(text).data) : undefined) as T;
	};
	const create = async (what: string, body: unknown) =>
		(await call<{ id: string }>('POST', `/${what}`, body)).id;
	return {
		how: apiKey ? 'API key (public API)' : 'owner login (REST API)',
		createCredential: (c: { name: string; type: string; data: unknown }) =>
			create('credentials', c),
		deleteCredential: (id: string) => call('DELETE', `/credentials/${id}`),
		createWorkflow: (w: ReturnType<typeof webhookWorkflow>) => create('workflows', w),
		// REST, n8n 1.123 and 2.x: the editor's switch ("publish" in 2.x), with the current versionId
		activate: async (id: string) =>
			apiKey
				? call('POST', `/workflows/${id}/activate`)
				: call('POST', `/workflows/${id}/activate`, {
						versionId: (await call<{ versionId: string }>('GET', `/workflows/${id}`)).versionId,
					}),
		deactivate: (id: string) =>
			call('POST', `/workflows/${id}/deactivate`, apiKey ? undefined : {}),
		deleteWorkflow: async (id: string) => {
			// n8n 2.x's editor archives before it deletes; n8n 1.x deletes at once
			if (!apiKey) await call('POST', `/workflows/${id}/archive`, {}).catch(() => undefined);
			await call('DELETE', `/workflows/${id}`);
		},
	};
}

const waitUntilReady = (url: string) =>
	pollUntil(
		async () =>
			(await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined))
				?.ok,
		() => `${url}/healthz did not answer 200 in time`,
		{ timeoutMs: Number(values['ready-timeout']) * 1000, everyMs: 1_000 },
	);

/** A workflow: a production Webhook whose answer is the last node's first item, then `nodes`. */
const webhookWorkflow = (name: string, webhookPath: string, nodes: ChainNode[]) =>
	chainWorkflow({ name }, [
		{
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'lastNode', options: {} },
		},
		...nodes,
	]);

/** The answer of a workflow's Webhook: its last node's first item (the fields the checks read). */
async function callWebhook<T>(url: string, webhookPath: string): Promise<T> {
	const res = await postToWebhook(`${url}/webhook/${webhookPath}`, {
		headers: { 'content-type': 'application/json' },
		body: '{}',
	});
	const text = await res.text();
	if (!res.ok) throw new Error(`POST /webhook/${webhookPath}: ${res.status} ${text.slice(0, 500)}`);
	return JSON.parse(text);
}

async function run() {
	const url = values.url?.replace(/\/+$/, '');
	if (!url) fail('run: --url (or AIRSIGN_E2E_N8N_URL) is required');
	const { results, check } = createChecks((line) => console.log(`[external] ${line}`));

	await waitUntilReady(url);
	const n8n = await connect(url);
	console.log(`[external] n8n at ${url}, logged in by ${n8n.how}`);
	const port = await getFreePort();
	const sandbox = await startSandboxProcess({ port });
	const created: { workflows: string[]; credential?: string } = { workflows: [] };
	try {
		const baseUrl = `http://${values['sandbox-host']}:${port}`;
		const credentialName = `AirSign e2e (external) ${port}`;
		created.credential = await n8n.createCredential({
			name: credentialName,
			type: 'airSignApi',
			data: sandboxCredential(baseUrl).data,
		});
		const credentials = { airSignApi: { id: created.credential, name: credentialName } };
		const airSign = (
			name: string,
			parameters: Record<string, unknown>,
			extra: Record<string, unknown> = {},
		): ChainNode => ({
			name,
			type: `${PACKAGE_NAME}.airSign`,
			typeVersion: 1,
			parameters,
			credentials,
			...extra,
		});
		const tag = randomUUID().slice(0, 8);
		const email = `external-${tag}@example.com`;

		const sendPath = `airsign-e2e-send-${tag}`;
		const sendFlow = webhookWorkflow(`AirSign e2e: create and send ${tag}`, sendPath, [
			airSign('Create Session', {
				resource: 'session',
				operation: 'create',
				name: `External ${tag}`,
				documentMode: 'simple',
				title: 'External check',
				body: 'Signed from an n8n this tier did not start.',
				recipients: { recipient: [{ name: 'Ext Signer', email }] },
			}),
			airSign('Send Session', {
				resource: 'session',
				operation: 'send',
				sessionId: '={{ $json.sessionId }}',
			}),
		]);
		const errorPath = `airsign-e2e-error-${tag}`;
		const errorFlow = webhookWorkflow(`AirSign e2e: an error in words ${tag}`, errorPath, [
			airSign(
				'Get Session',
				{
					resource: 'session',
					operation: 'get',
					sessionId: { __rl: true, mode: 'id', value: randomUUID() },
				},
				{ onError: 'continueRegularOutput' },
			),
		]);
		const listPath = `airsign-e2e-list-${tag}`;
		const listFlow = webhookWorkflow(`AirSign e2e: get many ${tag}`, listPath, [
			airSign('Get Many', {
				resource: 'session',
				operation: 'getMany',
				returnAll: false,
				limit: 10,
				filters: { recipientEmail: email },
			}),
		]);

		const loaded = await check(
			'1. the package is loaded: workflows with its nodes activate',
			async () => {
				for (const flow of [sendFlow, errorFlow, listFlow]) {
					const id = await n8n.createWorkflow(flow);
					created.workflows.push(id);
					await n8n.activate(id);
				}
				return `${created.workflows.length} workflows active`;
			},
		);
		if (loaded) {
			let sessionId: string | undefined;
			await check(
				'2. Create Session + Send through the credential (client credentials)',
				async () => {
					const sent = await callWebhook<{ status: string; sessionId: string }>(url, sendPath);
					assert.equal(sent.status, 'pending', `Send answered ${JSON.stringify(sent)}`);
					sessionId = sent.sessionId;
					assert.equal((await sandbox.getSession(sessionId)).status, 'pending', 'in the sandbox');
					const mails = (await sandbox.outbox()).filter((m) => m.to === email);
					assert.ok(mails.length > 0, `no invitation to ${email} in the sandbox outbox`);
					return `session ${sessionId} pending, invitation sent`;
				},
			);
			await check('3. a failure in words: Get Session of an unknown session (404)', async () => {
				const answer = await callWebhook<{ error: unknown; httpCode: unknown }>(url, errorPath);
				const item = `the error item is ${JSON.stringify(answer)}`;
				assert.match(String(answer.error), /^AirSign has no session with this ID \[/, item);
				assert.equal(answer.httpCode, '404', item);
				return answer.error;
			});
			await check('4. Get Many finds the session by its recipient', async () => {
				const first = await callWebhook<{ sessionId: string }>(url, listPath);
				assert.equal(first.sessionId, sessionId, `Get Many answered ${JSON.stringify(first)}`);
				return `first item ${first.sessionId}`;
			});
		}
	} finally {
		const warn = (e: Error) => console.log(`[external] cleanup: ${e.message}`);
		for (const id of created.workflows) {
			await n8n.deactivate(id).catch(() => undefined);
			await n8n.deleteWorkflow(id).catch(warn);
		}
		if (created.credential) await n8n.deleteCredential(created.credential).catch(warn);
		await sandbox.stop();
	}
	const failed = results.length < 4 || results.some((r) => !r.ok);
	console.log(`\n[external] summary (${url})`);
	printResults(results);
	console.log(`  ${failed ? 'FAILED' : 'ALL PASSED'}`);
	return !failed;
}
