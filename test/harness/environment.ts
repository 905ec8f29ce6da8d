/** A simulated n8n instance: credential types, store and helper, and the `additionalData` n8n-core
 * is handed (the CLI's `getBase` in workflow-execute-additional-data.ts). */
import './env-setup';

import { Credentials, ExecuteContext, ExecutionLifecycleHooks, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialType,
	INode,
	INodeCredentialsDetails,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { createRunExecutionData, UnexpectedError, UserError, Workflow } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials';
import { ensureN8nRuntime } from './engine';
import { singleTypeNodeTypes } from './node-types';

/** Reference to a stored credential, as it sits in `node.credentials[type]`. */
export type CredentialRef = INodeCredentialsDetails & { id: string };

/** Credential types by name (what `getByName` does in n8n's CLI). */
export class CredentialTypeRegistry extends Map<string, ICredentialType> {
	add(type: ICredentialType): this {
		return this.set(type.name, type);
	}

	getByName(name: string): ICredentialType {
		const type = this.get(name);
		if (!type) throw new UnexpectedError(`Unknown credential type "${name}" (register it first)`);
		return type;
	}
}

/** One instance's `credentials_entity` table, `data` encrypted by n8n-core's `Credentials`. */
export class CredentialStore {
	private readonly rows = new Map<string, { name: string; type: string; data: string }>();
	private nextId = 1;

	/** Calls of the helper's methods, for assertions: `preAuthentication` counts the type's own
	 * (token fetches), `preAuthenticationChecks` the helper's. */
	readonly counters = {
		getDecrypted: 0,
		preAuthenticationChecks: 0,
		preAuthentication: 0,
		updateCredentials: 0,
		authenticate: 0,
	};

	/** Saves a credential; returns its reference for `node.credentials`. */
	async add(type: string, data: ICredentialDataDecryptedObject, ref: Partial<CredentialRef>) {
		await ensureN8nRuntime();
		const id = ref.id ?? String(this.nextId++);
		const name = ref.name ?? `${type} account ${id}`;
		this.rows.set(id, { name, type, data: '' });
		await this.write(id, type, structuredClone(data));
		return { id, name };
	}

	has(id: string): boolean {
		return this.rows.has(id);
	}

	/** Loads as n8n-core `Credentials`, throwing n8n's "not found" error when absent or of another type. */
	load(id: string | null | undefined, type: string): Credentials {
		if (!id) throw new UserError(`Credential for type "${type}" has no ID`);
		const row = this.rows.get(id);
		if (!row || row.type !== type)
			throw new UserError(`Credential with ID "${id}" does not exist for type "${type}".`);
		return new Credentials({ id, name: row.name }, row.type, row.data || undefined);
	}

	private typeOf(id: string): string {
		const row = this.rows.get(id);
		if (!row) throw new UserError(`Credential with ID "${id}" does not exist.`);
		return row.type;
	}

	/** Decrypted data as stored (no defaults, no expression resolution). For assertions. */
	async getData(id: string): Promise<ICredentialDataDecryptedObject> {
		return await this.load(id, this.typeOf(id)).getData();
	}

	/** Replaces the row's data. */
	async write(id: string, type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		const credentials = this.load(id, type);
		await credentials.setData(data);
		this.rows.get(id)!.data = credentials.getDataToSave().data!;
	}

	/** Merges `patch` into the stored data (a test may e.g. plant a stale token). */
	async patch(id: string, patch: ICredentialDataDecryptedObject): Promise<void> {
		await this.write(id, this.typeOf(id), { ...(await this.getData(id)), ...patch });
	}
}

/** One simulated n8n instance: executions that share it share its credential store, as in n8n. */
export class TestEnvironment {
	readonly credentialTypes: CredentialTypeRegistry;
	readonly store = new CredentialStore();
	readonly credentialsHelper: HarnessCredentialsHelper;

	constructor(options: { credentialTypes?: ICredentialType[] } = {}) {
		this.credentialTypes = new CredentialTypeRegistry();
		this.credentialsHelper = new HarnessCredentialsHelper(this.credentialTypes, this.store);
		this.register(options.credentialTypes);
	}

	/** Registers the types not registered yet; returns this environment. */
	register(types: ICredentialType[] = []): this {
		for (const type of types)
			if (!this.credentialTypes.has(type.name)) this.credentialTypes.add(type);
		return this;
	}

	/** Saves a credential; pass the returned ref in `credentials: { [type]: ref }`. */
	async addCredential(
		type: string,
		data: ICredentialDataDecryptedObject,
		options: { id?: string; name?: string } = {},
	): Promise<CredentialRef> {
		if (!this.credentialTypes.has(type)) {
			throw new UnexpectedError(`Credential type "${type}" is not registered in this environment`);
		}
		return await this.store.add(type, data, options);
	}

	/** An edit as n8n's dialog saves it: the fields sent replace the saved ones, the others (the
	 * fetched token too) stay (`CredentialsService.unredact`). */
	async editCredential(id: string, changes: ICredentialDataDecryptedObject): Promise<void> {
		await this.store.patch(id, changes);
	}

	/** `node.credentials` from refs or plain data (stored on the fly). */
	async resolveNodeCredentials(
		credentials: Record<string, CredentialRef | ICredentialDataDecryptedObject> | undefined,
	): Promise<Record<string, CredentialRef> | undefined> {
		if (!credentials) return undefined;
		const result: Record<string, CredentialRef> = {};
		for (const [type, value] of Object.entries(credentials)) {
			result[type] = isCredentialRef(value, this.store)
				? { id: value.id, name: value.name }
				: await this.addCredential(type, value);
		}
		return result;
	}
}

/** Only an `id` and a `name`, of a stored credential. */
function isCredentialRef(value: object, store: CredentialStore): value is CredentialRef {
	const { id, name, ...rest } = value as Record<string, unknown>;
	const onlyIdAndName = typeof name === 'string' && Object.keys(rest).length === 0;
	return onlyIdAndName && typeof id === 'string' && store.has(id);
}

export function createTestEnvironment(
	options: ConstructorParameters<typeof TestEnvironment>[0] = {},
): TestEnvironment {
	return new TestEnvironment(options);
}

/** The simulated n8n instance an entry (runNode, createPollingHarness, testCredential) runs in. */
export interface EntryOptions {
	/** Default: a fresh one. */
	env?: TestEnvironment;
	/** Registered in `env` when missing. */
	credentialTypes?: ICredentialType[];
}

export const environmentOf = (options: EntryOptions) =>
	(options.env ?? createTestEnvironment()).register(options.credentialTypes);

let executions = 0;

const BASE_URL = 'http://localhost:5678/';

/** n8n-core's `additionalData`: real `ExecutionLifecycleHooks` (given `workflowData`, or the
 * workflow as saved), the instance URLs; what needs a server (sub-workflows, task runners) throws. */
export async function buildAdditionalData(options: {
	env: TestEnvironment;
	mode: WorkflowExecuteMode;
	workflowData?: IWorkflowBase;
	workflow?: Workflow;
	executionId?: string;
}): Promise<IWorkflowExecuteAdditionalData> {
	await ensureN8nRuntime();
	const executionId = options.executionId ?? String(++executions);
	const { workflow } = options;
	const workflowData =
		options.workflowData ??
		({
			id: workflow!.id,
			name: workflow!.name,
			active: workflow!.active,
			isArchived: false,
			nodes: Object.values(workflow!.nodes),
			connections: workflow!.connectionsBySourceNode,
			settings: workflow!.settings,
			createdAt: new Date(),
			updatedAt: new Date(),
		} as unknown as IWorkflowBase);
	const notAvailable = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not available in the test harness`);
	};
	const additionalData = {
		credentialsHelper: options.env.credentialsHelper,
		hooks: new ExecutionLifecycleHooks(options.mode, executionId, workflowData),
		executeWorkflow: notAvailable('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: notAvailable('The task runner (Code node)'),
		executionId,
		workflowId: workflowData.id,
		userId: 'harness-user',
		currentNodeExecutionIndex: 0,
		restApiUrl: `${BASE_URL}rest`,
		instanceBaseUrl: BASE_URL,
		formBaseUrl: `${BASE_URL}form`,
		formWaitingBaseUrl: `${BASE_URL}form-waiting`,
		formTestBaseUrl: `${BASE_URL}form-test`,
		webhookBaseUrl: `${BASE_URL}webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}webhook-test`,
		mcpBaseUrl: `${BASE_URL}mcp`,
		mcpTestBaseUrl: `${BASE_URL}mcp-test`,
		variables: {},
		logAiEvent: () => {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
	};
	return additionalData as unknown as IWorkflowExecuteAdditionalData;
}

/** The credential modal's Test as the CLI's CredentialsTester runs it: `test.request` as a temp
 * noOp node's routing in mode 'internal' (preAuthentication then always fetches a token), errors
 * mapped as the CLI does. Left out (AirSign uses none): OAuth2, `testedBy`, function/body rules. */
export interface TestCredentialOptions extends EntryOptions {
	/** Credential type name, e.g. 'airSignApi'. */
	type: string;
	/** A stored credential ref, or the data the user typed into the modal. */
	credentials: CredentialRef | ICredentialDataDecryptedObject;
}

const NOOP = 'n8n-nodes-base.noOp';

/** Runs a credential's test the way n8n's credential modal does; returns `{ status, message }`. */
export async function testCredential(options: TestCredentialOptions) {
	await ensureN8nRuntime();
	const env = environmentOf(options);
	const credentialType = env.credentialTypes.getByName(options.type);
	const refs = await env.resolveNodeCredentials({ [options.type]: options.credentials });
	const ref = refs![options.type];

	/** `credential`: the one tested (the store holds any token preAuthentication fetched). */
	const result = (status: 'OK' | 'Error', message: string) => ({
		status,
		message,
		credential: ref,
	});
	const test = credentialType.test;
	if (test === undefined) return result('Error', 'No testing function found for this credential.');

	const credentialsDecrypted: ICredentialsDecrypted = {
		id: ref.id,
		name: ref.name,
		type: options.type,
		data: await env.store.getData(ref.id),
	};

	const nodeTypes = singleTypeNodeTypes({
		description: {
			displayName: 'No Operation, do nothing',
			name: NOOP,
			group: ['organization'],
			version: 1,
			description: 'No Operation',
			defaults: { name: 'No Operation, do nothing' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: options.type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	});
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: NOOP,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [options.type]: { id: ref.id, name: ref.name } },
	};
	const workflow = new Workflow({
		id: 'harness-credential-test',
		name: 'Credential test',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const baseData = await buildAdditionalData({ env, workflow, mode: 'internal' });
	try {
		credentialsDecrypted.data = await env.credentialsHelper.applyDefaultsAndOverwrites(
			baseData,
			credentialsDecrypted.data!,
			options.type,
			'internal',
		);
	} catch (error) {
		return result('Error', String((error as Error).message));
	}

	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		baseData,
		'internal',
		createRunExecutionData({ executionData: null }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	try {
		await new RoutingNode(executeFunctions, nodeTypes.getByName(), credentialsDecrypted).runNode();
	} catch (caught) {
		const error = caught as Error & {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		const status = error.cause?.response?.status;
		if (status !== undefined) {
			const rule = test.rules?.find(
				(r) => r.type === 'responseCode' && r.properties.value === status,
			);
			if (rule) return result('Error', rule.properties.message);
			if (status < 199 || status > 299)
				return result(
					'Error',
					error.cause!.response!.statusText || `Received HTTP status code: ${status}`,
				);
		} else if (error.cause?.code) return result('Error', error.cause.code);
		return result('Error', String(error.message));
	}
	return result('OK', 'Connection successful!');
}
