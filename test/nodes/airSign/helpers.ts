/** The AirSign action node's engine tests: a sandbox per file, a fresh n8n per test, helpers. */
import {
	createTestEnvironment,
	runNode,
	type CredentialRef,
	type RunNodeOptions,
	type RunNodeResult,
	type TestEnvironment,
} from '../../harness';

import { inspect } from 'node:util';

import { Logger } from '@n8n/backend-common';
import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type INodeParameters,
} from 'n8n-workflow';
import { beforeEach, expect, onTestFinished, vi } from 'vitest';

import { sleepModule } from '../../harness/engine';
import { AirSignApi } from '../../../credentials/AirSignApi.credentials';
import { AirSign } from '../../../nodes/AirSign/AirSign.node';
import type { RequestLogEntry, Sandbox, SandboxOptions, TemplateStatus } from '../../../sandbox';
import {
	clientCredential as clientData,
	tokenCredential as tokenData,
	useSandbox,
} from '../../harness/sandbox';
import { startStub, type StubAnswer, type StubRequest } from '../../harness/fixtures/stubServer';

export interface TestContext {
	sandbox: Sandbox;
	env: TestEnvironment;
	/** Access-token credential of the demo organisation (ready token, never expires). */
	cred: CredentialRef;
	/** Runs the AirSign node once through n8n's WorkflowExecute. */
	run(parameters: INodeParameters, extra?: Partial<RunNodeOptions>): Promise<RunNodeResult>;
	/** Runs the node and expects it to succeed. */
	ok(parameters: INodeParameters, extra?: Partial<RunNodeOptions>): Promise<RunNodeResult>;
	/** Requests to the API (not the token endpoint). */
	apiRequests(): RequestLogEntry[];
	/** Runs the node and expects its refusal before any request: the message, naming the item. */
	refused(
		parameters: INodeParameters,
		message: string | RegExp,
		extra?: Partial<RunNodeOptions> & { itemIndex?: number },
	): Promise<RunNodeResult>;
}

/** The file's sandbox (no demo data unless asked); per test, a fresh n8n with the demo token. */
export function useAirSign(options: SandboxOptions = {}): TestContext {
	const sandbox = useSandbox({ seedDemoData: false, ...options });
	const ctx = {
		get sandbox() {
			return sandbox();
		},
		run: (parameters, extra) => runAirSign(ctx, parameters, extra),
		apiRequests: () => apiRequests(ctx.sandbox),
		async ok(parameters, extra) {
			const result = await runAirSign(ctx, parameters, extra);
			expect(result.error, result.error?.message).toBeUndefined();
			return result;
		},
		async refused(parameters, message, { itemIndex = 0, ...extra } = {}) {
			const result = await runAirSign(ctx, parameters, extra);
			expectError(result, message, { type: NodeOperationError, itemIndex });
			expect(ctx.sandbox.requests).toEqual([]);
			return result;
		},
	} as TestContext;
	beforeEach(async () => {
		ctx.env = createTestEnvironment({ credentialTypes: [new AirSignApi()] });
		ctx.cred = await tokenCredential(ctx, ctx.sandbox.demo.accessToken);
	});
	return ctx;
}

/** The credential data built by the harness (test/harness/sandbox.ts), added to this test's n8n. */
export const tokenCredential = (ctx: TestContext, accessToken: string, baseUrl?: string) =>
	ctx.env.addCredential('airSignApi', tokenData(ctx.sandbox, accessToken, baseUrl));

export const clientCredential = (ctx: TestContext, clientSecret?: string, baseUrl?: string) =>
	ctx.env.addCredential('airSignApi', clientData(ctx.sandbox, clientSecret, baseUrl));

/** The node as n8n runs it for an AI agent: the same node, its type named "<node>Tool". */
export function asTool(): AirSign {
	const tool = new AirSign();
	tool.description = { ...tool.description, name: 'airSignTool' };
	return tool;
}

/** Runs the AirSign node once through n8n's WorkflowExecute. */
export async function runAirSign(
	ctx: TestContext,
	parameters: INodeParameters,
	extra: Partial<RunNodeOptions> = {},
): Promise<RunNodeResult> {
	return await runNode({
		env: ctx.env,
		nodeType: new AirSign(),
		credentials: { airSignApi: ctx.cred },
		parameters,
		...extra,
	});
}

/** Expects the run's error: its message (text or pattern) and the fields given (a part of the description). */
export function expectError(
	result: RunNodeResult,
	message: string | RegExp,
	expected: {
		type?: typeof NodeApiError | typeof NodeOperationError;
		description?: string;
		httpCode?: string;
		itemIndex?: number;
	} = {},
) {
	const { type, description, httpCode, itemIndex } = expected;
	if (type) expect(result.error).toBeInstanceOf(type);
	if (typeof message === 'string') expect(result.error?.message).toBe(message);
	else expect(result.error?.message).toMatch(message);
	if (description !== undefined) expect(result.error!.description).toContain(description);
	if (httpCode !== undefined) expect(result.error!.httpCode).toBe(httpCode);
	if (itemIndex !== undefined) expect(result.error!.context?.itemIndex).toBe(itemIndex);
	return result.error!;
}

/** AirSign's whole answer: Simplify off. */
export const WHOLE_ANSWER = { simple: false };
/** The keys of AirSign's whole session (Get Session). */
export const SESSION_FIELDS = [
	'sessionId',
	'name',
	'status',
	'selfSignOnly',
	'createdAt',
	'updatedAt',
	'completedDate',
	'expiryDate',
	'recipients',
	'sessionType',
	'files',
];

/** A session ID no sandbox holds. */
export const UNKNOWN_ID = '3f2b8a1e-7c4d-4e8f-9a0b-1c2d3e4f5a6b';
export const locator = (value: string, mode = 'id') => ({ __rl: true, mode, value });
/** Input items `{ id }`, one per session, for parameters reading `$json.id`. */
export const idItems = (sessions: Array<{ sessionId: string }>) =>
	sessions.map((s) => ({ json: { id: s.sessionId } }));

/** Create From Template's parameters: the template, and the mapper's values and saved fields. */
export const fromTemplateParams = (
	templateId: INodeParameters[string],
	value: Record<string, unknown>,
	schema: object[] = [],
	extra: INodeParameters = {},
): INodeParameters => ({
	resource: 'session',
	operation: 'createFromTemplate',
	templateId,
	fields: {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema,
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	} as unknown as INodeParameters,
	...extra,
});

/** A mapper field as the editor saves it, required. */
export const savedField = (id: string, displayName: string, type: string) => ({
	id,
	displayName,
	type,
	required: true,
	display: true,
	defaultMatch: false,
});

export const uploadParams = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'file',
	operation: 'upload',
	binaryPropertyName: 'data',
	...extra,
});
/** An operation's parameters naming its session or template (`key`) by this value. */
export const onId =
	(resource: string, operation: string, key = `${resource}Id`) =>
	(id: INodeParameters[string], extra: INodeParameters = {}): INodeParameters => ({
		resource,
		operation,
		[key]: id,
		...extra,
	});
export const sendParams = (sessionId: string) => onId('session', 'send')(sessionId);
/** Send over the input items' `id`, with Items at Once when given. */
export const sendEach = (itemsAtOnce?: number | string): INodeParameters => ({
	...sendParams('={{ $json.id }}'),
	options: itemsAtOnce === undefined ? {} : { itemsAtOnce },
});
/** `count` drafts with one recipient each, ready to send. */
export const drafts = (sandbox: Sandbox, count: number) =>
	Array.from({ length: count }, (_, i) =>
		sandbox.createSession({
			name: `Draft ${i}`,
			recipients: [{ name: 'Ann Signer', email: 'ann@example.com' }],
		}),
	);
/** The places of the sessions that are now pending (sent). */
export const sentOf = (sandbox: Sandbox, sessions: Array<{ sessionId: string }>) =>
	sessions.flatMap((s, i) => (sandbox.getSession(s.sessionId)?.status === 'pending' ? [i] : []));
export const getManyParams = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'session',
	operation: 'getMany',
	...extra,
});

/** Holds Sends and lets them go in groups of these sizes (then freely): fewer out at once hangs. */
export function releaseSendsInGroups(sandbox: Sandbox, groupSizes: number[]) {
	let waiting: Array<() => void> = [];
	let group = 0;
	return sandbox.onRequest(async ({ path }) => {
		if (!path.endsWith('/Send') || group >= groupSizes.length) return;
		await new Promise<void>((resolve) => {
			waiting.push(resolve);
			if (waiting.length < groupSizes[group]) return;
			group++;
			const released = waiting;
			waiting = [];
			for (const release of released) release();
		});
	});
}

/** Whether AirSign stored exactly these bytes under the output item's fileId. */
export const storedAs = (sandbox: Sandbox, item: { json: IDataObject }, bytes: Buffer) =>
	sandbox.files.get(String(item.json.fileId))?.bytes.equals(bytes);
/** Requests to the API (not the token endpoint). */
export const apiRequests = (sandbox: Sandbox): RequestLogEntry[] =>
	sandbox.requests.filter((r) => r.path.startsWith('/api/v1'));
export const tokenRequests = (sandbox: Sandbox): RequestLogEntry[] =>
	sandbox.requests.filter((r) => r.path === '/oidc/token');

/** A PDF of exactly `size` bytes (header "%PDF-1.7\n", then filler). */
export function pdf(size: number, fill = 0x20): Buffer {
	const header = Buffer.from('%PDF-1.7\n');
	const bytes = Buffer.alloc(size, fill);
	header.copy(bytes, 0, 0, Math.min(size, header.length));
	return bytes;
}

/** Creates `count` sessions in the demo organisation, one second apart from 2025-01-01. */
export const seedSessions = (sandbox: Sandbox, count: number) =>
	Array.from({ length: count }, (_, i) => {
		const at = new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString();
		const name = `Session ${String(i).padStart(3, '0')}`;
		return sandbox.createSession({ name, createdAt: at, updatedAt: at });
	});

/** `count` templates in the demo organisation, "Template 000" on. */
export const seedTemplates = (sandbox: Sandbox, count: number, status: TemplateStatus = 'active') =>
	Array.from({ length: count }, (_, i) =>
		sandbox.createTemplate({ name: `Template ${String(i).padStart(3, '0')}`, status }),
	);

/** Everything printed: n8n's logger (every scoped one goes through Logger.prototype.log),
 * console, stdout and stderr. */
export function captureOutput() {
	const chunks: string[] = [];
	const record = (...args: unknown[]) => {
		for (const arg of args) chunks.push(typeof arg === 'string' ? arg : serialise(arg));
	};
	const spies = [
		vi
			.spyOn(Logger.prototype as unknown as { log: (...args: unknown[]) => void }, 'log')
			.mockImplementation(record),
		...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
			vi.spyOn(console, m).mockImplementation(record),
		),
	];
	const unpatch = [process.stdout, process.stderr].map((stream) => {
		const write = stream.write;
		stream.write = ((chunk: unknown, ...rest: unknown[]) => {
			record(String(chunk));
			return (write as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
		}) as typeof stream.write;
		return () => (stream.write = write);
	});
	return {
		text: () => chunks.join('\n'),
		restore: () => {
			for (const spy of spies) spy.mockRestore();
			for (const restore of unpatch) restore();
		},
	};
}

/** The whole value as text: errors with every own property and their cause, getters read. */
export const serialise = (value: unknown): string =>
	inspect(value, {
		depth: Infinity,
		showHidden: true,
		getters: true,
		maxArrayLength: Infinity,
		maxStringLength: Infinity,
		breakLength: Infinity,
	});

export { closedPort, type StubServer } from '../../harness/fixtures/stubServer';

/** A loopback stub in AirSign's place (answers the sandbox never gives), the credential on it. */
export async function stubAirSign(
	ctx: TestContext,
	answer: (request: StubRequest) => StubAnswer,
	authentication: 'accessToken' | 'clientCredentials' = 'accessToken',
) {
	const stub = await startStub(answer);
	onTestFinished(() => stub.close());
	ctx.cred =
		authentication === 'accessToken'
			? await tokenCredential(ctx, 'stub-token-abcdef', stub.baseUrl)
			: await clientCredential(ctx, ctx.sandbox.demo.clientSecret, stub.baseUrl);
	return stub;
}

/** Every wait asked of n8n-workflow's `sleep`, which waits what `onSleep` says (default 5 ms)
 * instead: back-offs asserted without real sleeps. Restored when the test ends. */
export function recordSleeps(onSleep: (ms: number) => number | void = () => 5) {
	const requested: number[] = [];
	const source = sleepModule();
	const realSleep = source.sleep;
	const spy = vi.spyOn(source, 'sleep').mockImplementation(async (ms: number) => {
		requested.push(ms);
		const real = onSleep(ms);
		await realSleep(typeof real === 'number' ? real : 5);
	});
	let restored = false;
	const restore = () => {
		if (!restored) spy.mockRestore();
		restored = true;
	};
	onTestFinished(restore);
	return { requested, restore };
}
