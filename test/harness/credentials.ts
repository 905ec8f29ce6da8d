/** n8n's CLI `CredentialsHelper` over the harness's credential table, the same decisions and calls.
 * Left out: overwrites, external secrets, dynamic, AI-gateway and OAuth credentials, policies,
 * function `authenticate`, `extends`. */
import './env-setup';

import { getAdditionalKeys, type Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject as Data,
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

import type { CredentialStore, CredentialTypeRegistry } from './environment';
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
		credentials: Data,
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
		const resolve = (value: string) =>
			isExpression(value)
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						) || '',
					)
				: value;
		requestOptions.headers ??= {};
		const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
		for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
			target[outerKey] ??= {};
			for (const [key, value] of Object.entries(outerValue as Record<string, string>))
				target[outerKey][resolve(key)] = resolve(value);
		}
		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: Data,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<Data | undefined> {
		this.store.counters.preAuthenticationChecks++;
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property?.typeOptions?.expirable === true,
		)?.name;
		// The CLI recognises a credential test by the tester's temp node (`testCredential`, environment.ts).
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
		const dataToPersist: Data = { ...storedData };
		for (const [key, value] of Object.entries(output as Data)) {
			if (key === expirable || !isExpression(storedData[key])) dataToPersist[key] = value;
		}
		await this.updateCredentials(nodeCredentials, credentialType.name, dataToPersist);
		return Object.assign(credentials, output);
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
	): Promise<Data> {
		this.store.counters.getDecrypted++;
		const data = await this.store.load(nodeCredentials.id, type).getData();
		if (raw === true) return data;
		return await this.applyDefaultsAndOverwrites(
			additionalData,
			data,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** The type's defaults, then expressions resolved as the CLI does (node's workflow or a mock). */
	async applyDefaultsAndOverwrites(
		additionalData: IWorkflowExecuteAdditionalData,
		original: Data,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		resolveIn?: ICredentialsExpressionResolveValues,
	): Promise<Data> {
		const data = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			{ ...original } as INodeParameters,
			true,
			false,
			null,
			null,
		) as Data;
		for (const key of ['allowedHttpRequestDomains', 'allowedDomains'] as const)
			if (data[key] === undefined && original[key] !== undefined) data[key] = original[key];

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (!resolveIn) {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			return await workflow.expression.withIsolate(
				async () =>
					workflow.expression.getComplexParameterValue(
						mockNode,
						data as INodeParameters,
						mode,
						additionalKeys,
						undefined,
						undefined,
						data,
					) as Data,
			);
		}
		try {
			return resolveIn.workflow.expression.getParameterValue(
				data as INodeParameters,
				resolveIn.runExecutionData,
				resolveIn.runIndex,
				resolveIn.itemIndex,
				resolveIn.node.name,
				resolveIn.connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				data,
			) as Data;
		} catch (e) {
			(e as Error).message += ' [Error resolving credentials]';
			throw e;
		}
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: Data,
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
	{ helpers: { httpRequest } }: IHttpRequestHelper,
	credentials: Data,
): IHttpRequestHelper {
	if (!engineDifferences.hasCredentialDomainRestriction) return { helpers: { httpRequest } };
	const restricted = async (requestOptions: IHttpRequestOptions): Promise<unknown> => {
		const allowedDomains = getCredentialOwnRequestAllowedDomains(credentials);
		if (allowedDomains === undefined) return await httpRequest(requestOptions);
		if (requestOptions.allowedDomains !== undefined) {
			throw new UserError(
				'This credential restricts requests to specific domains, which cannot be combined with the domains its authentication step asks for.',
			);
		}
		return await httpRequest({ ...requestOptions, allowedDomains });
	};
	return { helpers: { httpRequest: restricted } } as IHttpRequestHelper;
}

/** The CLI's `createMockNodeTypes` and node: the mock workflow of credential expressions. */
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
