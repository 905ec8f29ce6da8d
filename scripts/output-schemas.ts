// `npm run schemas`: the output schemas n8n's editor shows before a node has run, derived
// from the sandbox's answers through n8n's engine, where n8n looks for them (docs/compatibility.md);
// test/scripts/outputSchemas.test.ts compares them with the committed files.
import '../test/harness/env-setup'; // first: n8n reads process.env when its configuration is built

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { binaryItem } from '../test/harness/binary';
import { createPollingHarness } from '../test/harness/poll';
import { runNode } from '../test/harness/run-node';
import { AirSignApi } from '../credentials/AirSignApi.credentials';
import { AirSign } from '../nodes/AirSign/AirSign.node';
import { AirSignTrigger } from '../nodes/AirSign/AirSignTrigger.node';
import { TRIGGER_EVENTS } from '../nodes/AirSign/trigger/eventOptions';
import { offerTemplateParams } from '../test/nodes/airSign/offerTemplate';
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox';

export const SCHEMA_DIR = path.resolve(__dirname, '..', 'nodes', 'AirSign', '__schema__');

export interface JsonSchema {
	type: string | string[];
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema;
}
/** The JSON Schema every one of `values` fits: types and fields are the union of what was seen. */
export function schemaOf(values: unknown[]): JsonSchema {
	const types: string[] = []; // in the order first seen
	const properties = new Map<string, unknown[]>();
	const items: unknown[] = [];
	for (const value of values) {
		const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
		if (!types.includes(type)) types.push(type);
		if (type === 'object')
			for (const [key, v] of Object.entries(value as object))
				properties.set(key, [...(properties.get(key) ?? []), v]);
		if (type === 'array') items.push(...(value as unknown[]));
	}
	// null last (a stable sort): n8n's schema view shows the first type of a list
	types.sort((a, b) => Number(a === 'null') - Number(b === 'null'));
	const schema: JsonSchema = { type: types.length === 1 ? types[0] : types };
	if (properties.size)
		schema.properties = Object.fromEntries([...properties].map(([k, v]) => [k, schemaOf(v)]));
	if (items.length) schema.items = schemaOf(items);
	return schema;
}

/** An AirSign credential's data with its type: runNode and the poll harness store it on the fly. */
const airSignCredential = (accessToken: string, baseUrl: string) => ({
	credentialTypes: [new AirSignApi()],
	credentials: { airSignApi: { authentication: 'accessToken', accessToken, baseUrl } },
});
const json = (items: INodeExecutionData[]) => items.map((item) => item.json);
const PEOPLE = [
	{ name: 'Ann Signer', email: 'ann@example.com' },
	{ name: 'Bob Witness', email: 'bob@example.com' },
];

/** Each operation's items at a node version with its defaults (simplified), or with `extra` parameters. */
export async function actionOutputs(
	sandbox: Sandbox,
	version: number,
	extra: INodeParameters = {},
): Promise<Record<string, IDataObject[]>> {
	const scopes = 'write:sessions write:files write:templates';
	const credential = airSignCredential(sandbox.issueToken({ scopes }), sandbox.baseUrl);
	const run = async (
		parameters: INodeParameters,
		input?: Parameters<typeof runNode>[0]['input'],
	) => {
		const result = await runNode({
			...credential,
			nodeType: new AirSign(),
			nodeTypeVersion: version,
			parameters: { ...parameters, ...extra },
			input,
		});
		if (result.error)
			throw new Error(`${parameters.resource} → ${parameters.operation}: ${result.error.message}`);
		return json(result.items);
	};
	const id = (value: string) => ({ __rl: true, mode: 'id', value });
	const op = (resource: string, operation: string) => ({ resource, operation });
	// the e2e tier's PDF: an ES module, so its path is a variable for this tsconfig
	const fixtures = '../e2e/lib/fixtures.mts';
	const { samplePdf } = (await import(fixtures)) as { samplePdf(): Buffer };
	const out: Record<string, IDataObject[]> = {};

	const pdf = binaryItem(samplePdf(), { fileName: 'contract.pdf', mimeType: 'application/pdf' });
	out['file/upload'] = await run({ ...op('file', 'upload'), binaryPropertyName: 'data' }, [pdf]);
	// A draft and a session sent at once: Create answers draftUrl or sentAt.
	const create = (sendImmediately: boolean) =>
		run({
			...op('session', 'create'),
			name: 'Service agreement',
			documentMode: 'simple',
			title: 'Service Agreement',
			body: '# Terms\n\nThe supplier delivers.',
			recipients: { recipient: PEOPLE },
			sendImmediately,
		});
	out['session/create'] = [...(await create(false)), ...(await create(true))];
	// Every session of the demo data: each status, with and without files and recipients.
	out['session/getMany'] = await run({ ...op('session', 'getMany'), returnAll: true });
	const ids = out['session/getMany'].map((s) => ({ json: { id: s.sessionId } }));
	const eachId = id('={{ $json.id }}');
	out['session/get'] = await run({ ...op('session', 'get'), sessionId: eachId }, ids);
	const draft = sandbox.createSession({ name: 'To send', recipients: PEOPLE });
	out['session/send'] = await run({ ...op('session', 'send'), sessionId: draft.sessionId });
	const invitation = { ...op('session', 'sendInvitation'), sessionId: id(draft.sessionId) };
	out['session/sendInvitation'] = await run(invitation);
	out['template/getMany'] = await run({ ...op('template', 'getMany'), returnAll: true });
	const templates = out['template/getMany'].map((t) => ({ json: { id: t.templateId } }));
	out['template/get'] = await run({ ...op('template', 'get'), templateId: eachId }, templates);
	out['template/create'] = await run(offerTemplateParams());
	const created = out['template/create'][0];
	sandbox.activateTemplate(created.templateId as string);
	out['session/createFromTemplate'] = await run({
		...op('session', 'createFromTemplate'),
		templateId: id(created.templateId as string),
		fields: {
			mappingMode: 'defineBelow',
			value: {
				'recipient:1:name': 'Jane Citizen',
				'recipient:1:email': 'jane@example.com',
				employeeName: 'Jane Citizen',
				employeeEmail: 'jane@example.com',
				startDate: '2025-08-01',
			},
			matchingColumns: [],
			schema: [],
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		} as unknown as INodeParameters,
	});
	// Every operation of the node's description has a run above, so a new one cannot go without.
	const description = new AirSign().description;
	for (const field of description.properties.filter((p) => p.name === 'operation'))
		for (const option of field.options as Array<{ value: string }>) {
			const op = `${field.displayOptions?.show?.resource?.[0]}/${option.value}`;
			if (!out[op]) throw new Error(`${op}: no run of it in scripts/output-schemas.ts`);
		}
	return out;
}

/** The trigger's items, every event: activated, then each kind of change between two polls (clock moved by hand). */
async function triggerOutputs(sandbox: Sandbox, version: number): Promise<IDataObject[]> {
	const trigger = createPollingHarness({
		...airSignCredential(sandbox.demo.accessToken, sandbox.baseUrl),
		nodeType: new AirSignTrigger(),
		nodeTypeVersion: version,
		parameters: { events: [...TRIGGER_EVENTS] },
		workflowId: `output-schemas-v${version}`,
	});
	const items: IDataObject[] = [];
	const poll = async () => {
		const result = await trigger.poll();
		if (result.error) throw result.error;
		items.push(...json(result.items));
		sandbox.clock.advance(5_000);
	};
	const deal = sandbox.createSession({ name: 'Deal', recipients: PEOPLE });
	const lapsing = sandbox.createSession({ name: 'Lapsing', status: 'pending', recipients: PEOPLE });
	const dropped = sandbox.createSession({ name: 'Dropped', status: 'pending', recipients: PEOPLE });
	sandbox.clock.advance(3_600_000);
	await poll(); // activation
	await poll(); // its starting picture
	const changes = [
		() => sandbox.createSession({ name: 'New', recipients: PEOPLE }),
		() => sandbox.updateSession(deal.sessionId, { status: 'pending' }),
		() => sandbox.signRecipient(deal.sessionId, { email: 'ann@example.com' }),
		() => sandbox.signRecipient(deal.sessionId, { email: 'bob@example.com' }),
		() => sandbox.updateSession(dropped.sessionId, { status: 'cancelled' }),
		() => sandbox.updateSession(lapsing.sessionId, { status: 'expired' }),
	];
	for (const change of changes) {
		change();
		sandbox.clock.advance(1_000);
		await poll();
	}
	return items;
}

/** Every schema file, by its path under __schema__, as text. */
export async function generateOutputSchemas(): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	// Formatted as `prettier --write` would (npm run lint checks every JSON file with it).
	const prettier = await import('prettier');
	const options = {
		...(await prettier.resolveConfig(path.join(SCHEMA_DIR, 'x.json'))),
		parser: 'json',
	};
	const put = async (file: string, values: IDataObject[]) => {
		if (!values.length) throw new Error(`${file}: no items to derive a schema from`);
		files.set(file, await prettier.format(JSON.stringify(schemaOf(values)), options));
	};
	const inSandbox = async (options: SandboxOptions, use: (sandbox: Sandbox) => Promise<void>) => {
		const sandbox = await startSandbox(options);
		await use(sandbox).finally(() => sandbox.close());
	};
	// n8n looks for a version's schemas in its own folder, v<major>.<minor>.<patch>.
	for (const version of [new AirSign().description.version].flat())
		await inSandbox({ seedDemoData: true }, async (sandbox) => {
			for (const [op, values] of Object.entries(await actionOutputs(sandbox, version)))
				await put(`v${version}.0.0/${op}.json`, values);
		});
	for (const version of [new AirSignTrigger().description.version].flat())
		await inSandbox({ now: Date.now() }, async (sandbox) =>
			put(`v${version}.0.0.json`, await triggerOutputs(sandbox, version)),
		);
	return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** The files now under __schema__ (paths relative to it). */
export function committedOutputSchemas(dir = SCHEMA_DIR): Map<string, string> {
	const entries = existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }) : [];
	const files = entries
		.filter((e) => !e.isDirectory())
		.map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
	return new Map(
		files
			.sort((a, b) => a.localeCompare(b))
			.map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]),
	);
}

async function main() {
	const generated = await generateOutputSchemas();
	for (const [file, text] of generated) {
		mkdirSync(path.dirname(path.join(SCHEMA_DIR, file)), { recursive: true });
		writeFileSync(path.join(SCHEMA_DIR, file), text);
	}
	const stale = [...committedOutputSchemas().keys()].filter((file) => !generated.has(file));
	if (stale.length) throw new Error(`files no operation produces any more: ${stale.join(', ')}`);
	const where = path.relative(process.cwd(), SCHEMA_DIR);
	console.log(`[output-schemas] wrote ${generated.size} files into ${where}`);
}

if (require.main === module)
	main().then(
		() => process.exit(0),
		(err) => {
			console.error(`[output-schemas] FAILED: ${err.stack ?? err}`);
			process.exit(1);
		},
	);
