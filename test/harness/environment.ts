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
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UnexpectedError } from 'n8n-workflow';

import { HarnessCredentialsHelper } from './credentials';
import { CredentialStore, CredentialTypeRegistry } from './credentialStore';
import { ensureN8nRuntime } from './n8n-runtime';

/** Reference to a stored credential, as it sits in `node.credentials[type]`. */
export type CredentialRef = INodeCredentialsDetails & { id: string };

export interface TestEnvironmentOptions {
	/** Credential types this "instance" knows (the package's credentials). */
	credentialTypes?: ICredentialType[];
}

/**
 * One simulated n8n instance. Share it between `runNode`, polling harnesses and
 * `testCredential` calls so they use the same credential store (tokens persisted by
 * one execution are reused by the next, as in n8n).
 */
export class TestEnvironment {
	readonly credentialTypes: CredentialTypeRegistry;

	readonly store = new CredentialStore();

	readonly credentialsHelper: HarnessCredentialsHelper;

	constructor(options: TestEnvironmentOptions = {}) {
		this.credentialTypes = new CredentialTypeRegistry(options.credentialTypes ?? []);
		this.credentialsHelper = new HarnessCredentialsHelper(this.credentialTypes, this.store);
	}

	/** Saves a credential in the store; pass the returned ref in `credentials: { [type]: ref }`. */
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
	 * Saves an edit of a stored credential, as n8n does when its credential dialog is saved: the
	 * fields sent replace the saved ones, and fields left untouched keep their saved value,
	 * passwords and the hidden fetched token included (the CLI's `CredentialsService.unredact`).
	 * Executions read it from their next `getCredentials`.
	 */
	async editCredential(id: string, changes: ICredentialDataDecryptedObject): Promise<void> {
		await this.store.patch(id, changes);
	}

	/**
	 * Accepts either a ref from `addCredential` or plain credential data (stored on the
	 * fly, once per call) and returns `node.credentials`.
	 */
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
		store.getRow(id) !== undefined
	);
}

/** Creates a simulated n8n instance (see {@link TestEnvironment}). */
export function createTestEnvironment(options: TestEnvironmentOptions = {}): TestEnvironment {
	return new TestEnvironment(options);
}

let executionCounter = 0;

/** A fresh execution id, unique in this process. */
export function nextExecutionId(): string {
	executionCounter += 1;
	return String(executionCounter);
}

const BASE_URL = 'http://localhost:5678/';

/**
 * The `additionalData` n8n-core needs: the credentials helper, real
 * `ExecutionLifecycleHooks`, the instance URLs, and stubs for what needs a server
 * (sub-workflows, task runners, runtime credentials) that throw if a node reaches them.
 */
export async function buildAdditionalData(options: {
	env: TestEnvironment;
	workflowData: IWorkflowBase;
	mode: WorkflowExecuteMode;
	executionId?: string;
}): Promise<IWorkflowExecuteAdditionalData> {
	await ensureN8nRuntime();
	const executionId = options.executionId ?? nextExecutionId();
	const notAvailable = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not available in the test harness`);
	};
	const additionalData = {
		credentialsHelper: options.env.credentialsHelper,
		hooks: new ExecutionLifecycleHooks(options.mode, executionId, options.workflowData),
		executeWorkflow: notAvailable('Executing a sub-workflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: notAvailable('The task runner (Code node)'),
		executionId,
		workflowId: options.workflowData.id,
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
