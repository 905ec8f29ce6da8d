/** The credential modal's Test as the CLI's CredentialsTester runs it: `test.request` as a temp
 * noOp node's routing in mode 'internal' (preAuthentication then always fetches a token), errors
 * mapped as the CLI does. Left out (AirSign uses none): OAuth2, `testedBy`, function/body rules. */
import './env-setup';

import { ExecuteContext, RoutingNode } from 'n8n-core';
import type { ICredentialDataDecryptedObject, ICredentialsDecrypted, INode } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import type { CredentialRef, EntryOptions } from './environment';
import { buildAdditionalData, environmentOf } from './environment';
import { ensureN8nRuntime } from './n8n-runtime';
import { singleTypeNodeTypes } from './node-types';

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
