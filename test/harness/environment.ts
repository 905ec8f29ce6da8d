/**
 * A simulated n8n instance for tests: credential types, the credential store and the
 * credentials helper, plus the `additionalData` object n8n-core's execution engine is
 * handed (the CLI builds it in workflow-execute-additional-data.ts `getBase`).
 */
import './env-setup';

import { ExecutionLifecycleHooks } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INodeCredentialsDetails,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials';
import { CredentialStore, CredentialTypeRegistry } from './credentialStore';
import { ensureN8nRuntime } from './n8n-runtime';

/** Reference to a stored credential, as it sits in `node.credentials[type]`. */
export type CredentialRef = INodeCredentialsDetails & { id: string };

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
		return await this.store.add({ type, data, ...options });
	}

	/**
	 * Saves an edit as n8n's credential dialog does: the fields sent replace the saved ones, the
	 * others keep their value, passwords and the fetched token included (`CredentialsService.unredact`).
	 */
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

export function isCredentialRef(value: unknown, store: CredentialStore): value is CredentialRef {
	if (typeof value !== 'object' || value === null) return false;
	const keys = Object.keys(value);
	const { id, name } = value as { id?: unknown; name?: unknown };
	return (
		typeof id === 'string' &&
		typeof name === 'string' &&
		keys.every((k) => k === 'id' || k === 'name') &&
		store.has(id)
	);
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

/**
 * The `additionalData` n8n-core needs: the credentials helper, real `ExecutionLifecycleHooks`, the
 * instance URLs; what needs a server (sub-workflows, task runners) throws if a node reaches it.
 * The hooks get `workflowData`, or the workflow as n8n would have saved it.
 */
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
