/**
 * `testCredential`: the "Test" step of n8n's credential modal, reproduced from the CLI's
 * CredentialsTester (packages/cli/src/services/credentials-tester.service.ts).
 *
 * Reproduced as in the CLI:
 * - the test is the credential type's `test` request (or, if `nodeType` is given, a
 *   node's `testedBy`: a request object or a `methods.credentialTest` function, called
 *   with n8n-core's `CredentialTestContext`);
 * - the credential data first goes through `applyDefaultsAndOverwrites(..., 'internal')`
 *   (defaults + expressions); a failure there is reported as `{ status: 'Error' }`;
 * - a temp node `Temp-Node` of type `n8n-nodes-base.noOp` with one parameter `temp`
 *   whose `routing.request` is the test request, in a throwaway `Workflow`, executed by
 *   n8n-core's `RoutingNode` on an `ExecuteContext` in mode 'internal' with the
 *   credentials passed as `credentialsDecrypted`. So `httpRequestWithAuthentication`
 *   runs exactly as in n8n: `preAuthentication` (which ALWAYS fetches a fresh token
 *   during a test, because the CLI recognises the temp noOp node and persists it to the
 *   credential), `authenticate`, SSRF rules, the 401 retry;
 * - errors: `error.cause.response` → the first `responseCode` rule whose value equals
 *   the status, else `statusText` or "Received HTTP status code: N"; else
 *   `error.cause.code` (ECONNREFUSED...); else `error.message`;
 * - success: `responseSuccessBody` rules, else `{ status: 'OK', message: 'Connection successful!' }`.
 *
 * Simplified: no OAuth2 "has access token" test, no `$secrets` redaction, no error
 * reporting to Sentry, no lookup of `testedBy` across all installed nodes (pass the
 * node type explicitly). The credential must be saved first (as the editor does before
 * testing): plain data is stored in the environment's store on the fly.
 */
import './env-setup';

import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunction,
	ICredentialTestRequest,
	ICredentialType,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	IWorkflowBase,
} from 'n8n-workflow';
import { createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';

import type { CredentialRef, TestEnvironment } from './environment';
import { buildAdditionalData, createTestEnvironment, isCredentialRef } from './environment';
import { ensureN8nRuntime } from './n8n-runtime';

export interface TestCredentialOptions {
	/** Credential type name, e.g. 'airSignApi'. */
	type: string;
	/** A stored credential ref, or the data the user typed into the modal. */
	credentials: CredentialRef | ICredentialDataDecryptedObject;
	env?: TestEnvironment;
	credentialTypes?: ICredentialType[];
	/** A node whose `credentials[].testedBy` tests this type (when the type has no `test`). */
	nodeType?: INodeType | IVersionedNodeType;
}

export interface TestCredentialResult extends INodeCredentialTestResult {
	/** The error the test request failed with, if any (for diagnostics; n8n shows only `message`). */
	error?: Error & { cause?: { response?: { status?: number }; code?: string } };
	/** Ref of the credential that was tested (the store holds any token preAuthentication fetched). */
	credential: CredentialRef;
}

type TestFunction =
	| ICredentialTestFunction
	| { nodeType?: INodeType; testRequest: ICredentialTestRequest };

function findTest(
	credentialType: ICredentialType,
	nodeType?: INodeType | IVersionedNodeType,
): TestFunction | undefined {
	if (credentialType.test) return { testRequest: credentialType.test };
	if (!nodeType) return undefined;
	const versions: INodeType[] =
		'nodeVersions' in nodeType ? Object.values(nodeType.nodeVersions) : [nodeType];
	for (const version of versions.reverse()) {
		for (const { name, testedBy } of version.description.credentials ?? []) {
			if (name !== credentialType.name || !testedBy) continue;
			if (typeof testedBy === 'string') {
				const fn = version.methods?.credentialTest?.[testedBy];
				if (fn) return fn;
				continue;
			}
			return { nodeType: version, testRequest: testedBy };
		}
	}
	return undefined;
}

const NOOP_DESCRIPTION: INodeType['description'] = {
	displayName: 'No Operation, do nothing',
	name: 'n8n-nodes-base.noOp',
	group: ['organization'],
	version: 1,
	description: 'No Operation',
	defaults: { name: 'No Operation, do nothing' },
	inputs: ['main'],
	outputs: ['main'],
	properties: [],
};

/** Runs a credential's test the way n8n's credential modal does; returns `{ status, message }`. */
export async function testCredential(
	options: TestCredentialOptions,
): Promise<TestCredentialResult> {
	await ensureN8nRuntime();
	const env = options.env ?? createTestEnvironment();
	for (const type of options.credentialTypes ?? []) {
		if (!env.credentialTypes.has(type.name)) env.credentialTypes.add(type);
	}
	const credentialType = env.credentialTypes.getByName(options.type);
	const ref = isCredentialRef(options.credentials, env.store)
		? { id: options.credentials.id, name: options.credentials.name }
		: await env.addCredential(options.type, options.credentials);

	const test = findTest(credentialType, options.nodeType);
	if (test === undefined) {
		return {
			status: 'Error',
			message: 'No testing function found for this credential.',
			credential: ref,
		};
	}

	const credentialsDecrypted: ICredentialsDecrypted = {
		id: ref.id,
		name: ref.name,
		type: options.type,
		data: await env.store.getData(ref.id),
	};

	const workflowData = {
		id: 'harness-credential-test',
		name: 'Credential test',
		active: false,
		nodes: [],
		connections: {},
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
	const baseData = await buildAdditionalData({ env, workflowData, mode: 'internal' });
	try {
		credentialsDecrypted.data = await env.credentialsHelper.applyDefaultsAndOverwrites(
			baseData,
			credentialsDecrypted.data!,
			options.type,
			'internal',
		);
	} catch (error) {
		return { status: 'Error', message: String((error as Error).message), credential: ref };
	}

	if (typeof test === 'function') {
		const context = new CredentialTestContext();
		const result = await test.call(context, credentialsDecrypted);
		return { ...result, credential: ref };
	}

	const baseNodeType = test.nodeType ?? { description: NOOP_DESCRIPTION };
	const node: INode = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: baseNodeType.description.name,
		typeVersion: Array.isArray(baseNodeType.description.version)
			? baseNodeType.description.version.slice(-1)[0]
			: baseNodeType.description.version,
		position: [0, 0],
		credentials: { [options.type]: { id: ref.id, name: ref.name } },
	};
	const nodeTypeCopy: INodeType = {
		description: {
			...baseNodeType.description,
			credentials: [{ name: options.type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.testRequest.request },
					default: '',
				},
			],
		},
	};
	const nodeTypes: INodeTypes = {
		getKnownTypes: () => ({}),
		getByName: () => nodeTypeCopy,
		getByNameAndVersion: (_name, version) =>
			NodeHelpers.getVersionedNodeType(nodeTypeCopy, version),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const mode = 'internal';
	const additionalData = await buildAdditionalData({ env, workflowData, mode });
	const executeData: IExecuteData = { node, data: {}, source: null };
	const executeFunctions = new ExecuteContext(
		workflow,
		node,
		additionalData,
		mode,
		createRunExecutionData({ executionData: null }),
		0,
		[],
		{ main: [[{ json: {} }]] },
		executeData,
		[],
	);
	const routingNode = new RoutingNode(executeFunctions, nodeTypeCopy, credentialsDecrypted);

	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await routingNode.runNode();
	} catch (caught) {
		const error = caught as NonNullable<TestCredentialResult['error']> & {
			cause?: { response?: { status: number; statusText?: string }; code?: string };
		};
		if (error.cause?.response) {
			const statusCode = error.cause.response.status;
			const statusMessage = error.cause.response.statusText;
			for (const rule of test.testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) {
					return { status: 'Error', message: rule.properties.message, error, credential: ref };
				}
			}
			if (statusCode < 199 || statusCode > 299) {
				return {
					status: 'Error',
					message: statusMessage || `Received HTTP status code: ${statusCode}`,
					error,
					credential: ref,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code, error, credential: ref };
		}
		return { status: 'Error', message: String(error.message), error, credential: ref };
	}

	for (const rule of test.testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const responseData = response![0][0].json;
			const value = rule.properties.key
				.split('.')
				.reduce<unknown>(
					(acc, key) => (acc as Record<string, unknown> | undefined)?.[key],
					responseData,
				);
			if (value === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message, credential: ref };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!', credential: ref };
}
