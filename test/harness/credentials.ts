/**
 * n8n's CLI `CredentialsHelper` (packages/cli/src/credentials-helper.ts) over the harness's
 * credential table (credentialStore.ts), with the same decisions and n8n-workflow calls. Left out:
 * overwrites, external secrets, dynamic, AI-gateway and OAuth credentials, policies, function
 * `authenticate`, `extends`.
 */
import './env-setup';

import { getAdditionalKeys, type Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	getCredentialOwnRequestAllowedDomains,
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	UnexpectedError,
	UserError,
	Workflow,
} from 'n8n-workflow';

import { CredentialStore, CredentialTypeRegistry } from './credentialStore';
import { engineDifferences } from './engine';
import { singleTypeNodeTypes } from './node-types';

export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(
		readonly credentialTypes: CredentialTypeRegistry,
		readonly store: CredentialStore,
	) {
		super();
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		this.store.counters.authenticate++;
		const { authenticate } = this.credentialTypes.getByName(typeName);
		if (authenticate === undefined) return requestOptions as IHttpRequestOptions;
		if (typeof authenticate !== 'object' || authenticate.type !== 'generic')
			throw new UnexpectedError('The harness knows only generic credential authentication');
		if (!workflow || !node)
			throw new UnexpectedError('Workflow and node are required for generic authentication');
		requestOptions.headers ??= {};
		const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
		const resolve = (value: string) => this.resolveValue(value, credentials, workflow, node);
		for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
			target[outerKey] ??= {};
			for (const [key, value] of Object.entries(outerValue as Record<string, string>))
				target[outerKey][resolve(key)] = resolve(value);
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		this.store.counters.preAuthenticationChecks++;
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property?.typeOptions?.expirable === true,
		)?.name;
		// The CLI recognises a credential test by the tester's temp node (see credential-test.ts).
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';
		if (
			expirable === undefined ||
			typeof credentialType.preAuthentication !== 'function' ||
			!(credentials[expirable] === '' || credentialsExpired || isTestingCredentials)
		)
			return undefined;

		this.store.counters.preAuthentication++;
		const output = await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		);

		// Only an output carrying the expirable property is persisted.
		if (output[expirable] === undefined || !node.credentials) return undefined;
		const nodeCredentials = node.credentials[credentialType.name];
		const storedData = await this.store.load(nodeCredentials?.id, credentialType.name).getData();
		const dataToPersist: ICredentialDataDecryptedObject = { ...storedData };
		for (const [key, value] of Object.entries(output as ICredentialDataDecryptedObject)) {
			if (key === expirable || !isExpression(storedData[key])) dataToPersist[key] = value;
		}
		await this.updateCredentials(nodeCredentials, credentialType.name, dataToPersist);
		return Object.assign(credentials, output);
	}

	private resolveValue(
		value: string,
		$credentials: ICredentialDataDecryptedObject,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(value)) return value;
		const resolved = workflow.expression.getSimpleParameterValue(
			node,
			value,
			'internal',
			{ $credentials },
			undefined,
			'',
		);
		return resolved ? resolved.toString() : '';
	}

	/** No credential type of the harness `extends` another. */
	getParentTypes(): string[] {
		return [];
	}

	async getCredentials(
		nodeCredential: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		return this.store.load(nodeCredential.id, type);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!this.credentialTypes.has(credentialType)) return true;
		const typeDef = this.credentialTypes.getByName(credentialType);
		if (!typeDef.restrictToSupportedNodes) return true;
		return (typeDef.supportedNodes ?? []).some(
			(name) => name === nodeType || nodeType.endsWith(`.${name}`),
		);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getByName(type).properties;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		this.store.counters.getDecrypted++;
		const decryptedDataOriginal = await this.store.load(nodeCredentials.id, type).getData();
		if (raw === true) return decryptedDataOriginal;
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			decryptedDataOriginal,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** Defaults of the credential type + expressions in the data (no overwrites in tests). */
	async applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		decryptedDataOriginal: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const decryptedData = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			{ ...decryptedDataOriginal } as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;

		for (const key of ['allowedHttpRequestDomains', 'allowedDomains'] as const) {
			if (decryptedData[key] === undefined && decryptedDataOriginal[key] !== undefined) {
				decryptedData[key] = decryptedDataOriginal[key];
			}
		}

		return await resolveCredentialExpressions(
			decryptedData,
			additionalData,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.counters.updateCredentials++;
		await this.store.write(nodeCredentials.id!, type, data);
	}

	/** n8n-core calls these two for OAuth2 credentials only. */
	async runPreAuthentication(): Promise<undefined> {
		throw new UnexpectedError('The harness knows no OAuth credentials');
	}

	async updateCredentialsOauthTokenData(): Promise<void> {
		throw new UnexpectedError('The harness knows no OAuth credentials');
	}
}

/** The CLI's `restrictToCredentialDomains`: the preAuthentication hook only sees `httpRequest`. */
function restrictToCredentialDomains(
	helpers: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): IHttpRequestHelper {
	if (!engineDifferences.hasCredentialDomainRestriction) {
		return { helpers: { httpRequest: helpers.helpers.httpRequest } } as IHttpRequestHelper;
	}
	return {
		helpers: {
			httpRequest: async (requestOptions: IHttpRequestOptions): Promise<unknown> => {
				const allowedDomains = getCredentialOwnRequestAllowedDomains(credentials);
				if (allowedDomains === undefined) {
					return await helpers.helpers.httpRequest(requestOptions);
				}
				if (requestOptions.allowedDomains !== undefined) {
					throw new UserError(
						'This credential restricts requests to specific domains, which cannot be combined with the domains its authentication step asks for.',
					);
				}
				return await helpers.helpers.httpRequest({ ...requestOptions, allowedDomains });
			},
		},
	} as IHttpRequestHelper;
}

/** The CLI's `createMockNodeTypes`: the node type of the mock workflow. */
const mockNodeTypes = singleTypeNodeTypes({
	description: { properties: [] },
} as unknown as INodeType);
const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

/** Expressions in a credential's data, resolved as the CLI does: with the node's workflow, else a mock one. */
async function resolveCredentialExpressions(
	data: ICredentialDataDecryptedObject,
	additionalData: IWorkflowExecuteAdditionalData,
	mode: WorkflowExecuteMode,
	executeData?: IExecuteData,
	expressionResolveValues?: ICredentialsExpressionResolveValues,
): Promise<ICredentialDataDecryptedObject> {
	let decryptedData = data;
	const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });

	if (expressionResolveValues) {
		try {
			decryptedData = expressionResolveValues.workflow.expression.getParameterValue(
				decryptedData as INodeParameters,
				expressionResolveValues.runExecutionData,
				expressionResolveValues.runIndex,
				expressionResolveValues.itemIndex,
				expressionResolveValues.node.name,
				expressionResolveValues.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				decryptedData,
			) as ICredentialDataDecryptedObject;
		} catch (e) {
			(e as Error).message += ' [Error resolving credentials]';
			throw e;
		}
	} else {
		const workflow = new Workflow({
			nodes: [mockNode],
			connections: {},
			active: false,
			nodeTypes: mockNodeTypes,
		});
		decryptedData = await workflow.expression.withIsolate(
			async () =>
				workflow.expression.getComplexParameterValue(
					mockNode,
					decryptedData as INodeParameters,
					mode,
					additionalKeys,
					undefined,
					undefined,
					decryptedData,
				) as ICredentialDataDecryptedObject,
		);
	}
	return decryptedData;
}
