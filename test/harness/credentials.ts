/**
 * A `CredentialsHelper` that behaves like the one in n8n's CLI
 * (packages/cli/src/credentials-helper.ts), over the harness's credential table
 * (credentialStore.ts).
 *
 * Mirrored from the CLI (same decisions, same n8n-workflow calls):
 * - `getDecrypted`: load by id + type, decrypt, `raw` short-cut, defaults of the
 *   credential type's properties (`NodeHelpers.getNodeParameters`), then expressions in
 *   the credential data resolved with n8n's expression engine (`getAdditionalKeys(...,
 *   { isCredential: true })`, mock workflow or `expressionResolveValues`).
 * - `authenticate`: function form called as is; generic form resolves every key and
 *   value of `headers` / `qs` / `body` / `auth` with `$credentials` through
 *   `workflow.expression.getSimpleParameterValue(node, value, 'internal', ...)`.
 * - `preAuthentication`: finds the hidden `typeOptions.expirable` property, calls the
 *   type's `preAuthentication` when it is empty, when `credentialsExpired` is true or
 *   when the node is the credential tester's temp noOp node; if the output holds the
 *   expirable property and the node has credentials, persists it (never overwriting a
 *   field the user stored as an expression) and returns the merged credentials.
 *   The hook's `httpRequest` is restricted to the credential's own allowed domains
 *   (`getCredentialOwnRequestAllowedDomains`), as in the CLI.
 * - `updateCredentials` / `updateCredentialsOauthTokenData`: encrypt and write back.
 *
 * Left out (no equivalent in a unit-test process): credential overwrites, external
 * secrets, dynamic (per-user) credentials, AI-gateway credentials, project policies,
 * OAuth pinned fields, JSON-leaf expressions.
 */
import './env-setup';

import { Credentials } from 'n8n-core';
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
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
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

import { engineDifferences } from './engine';

import { resolveCredentialExpressions } from './credentialExpressions';
import { CredentialStore, CredentialTypeRegistry } from './credentialStore';

/**
 * n8n's `ICredentialsHelper` for tests: same behaviour as the CLI's CredentialsHelper,
 * reading and writing a {@link CredentialStore} instead of the database.
 */
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
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		this.store.counters.authenticate++;
		const requestOptions = incomingRequestOptions;
		const credentialType = this.credentialTypes.getByName(typeName);

		if (credentialType.authenticate) {
			if (typeof credentialType.authenticate === 'function') {
				return await credentialType.authenticate(
					credentials,
					requestOptions as IHttpRequestOptions,
				);
			}
			if (typeof credentialType.authenticate === 'object') {
				if (!workflow || !node) {
					throw new UnexpectedError(
						'Workflow and node are required for declarative credential authentication',
					);
				}
				const { authenticate } = credentialType;
				if (requestOptions.headers === undefined) requestOptions.headers = {};
				if (authenticate.type === 'generic') {
					const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
					for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
						for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
							const keyResolved = this.resolveValue(
								key,
								{ $credentials: credentials },
								workflow,
								node,
							);
							const valueResolved = this.resolveValue(
								value,
								{ $credentials: credentials },
								workflow,
								node,
							);
							if (!target[outerKey]) target[outerKey] = {};
							target[outerKey][keyResolved] = valueResolved;
						}
					}
				}
			}
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

		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property?.typeOptions?.expirable === true,
		);
		if (expirableProperty?.name === undefined) return undefined;

		// The CLI recognises a credential test by the tester's temp node (see credential-test.ts).
		const isTestingCredentials =
			node?.parameters?.temp === '' && node?.type === 'n8n-nodes-base.noOp';

		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		if (
			!(credentials[expirableProperty.name] === '' || credentialsExpired || isTestingCredentials)
		) {
			return undefined;
		}

		this.store.counters.preAuthentication++;
		const output = await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		);

		// Only an output carrying the expirable property is persisted.
		if (output[expirableProperty.name] === undefined) return undefined;

		if (node.credentials) {
			const nodeCredentials = node.credentials[credentialType.name];
			const storedData = await this.store.load(nodeCredentials?.id, credentialType.name).getData();
			const dataToPersist: ICredentialDataDecryptedObject = { ...storedData };
			for (const [key, value] of Object.entries(output as ICredentialDataDecryptedObject)) {
				if (key === expirableProperty.name || !isExpression(storedData[key])) {
					dataToPersist[key] = value;
				}
			}
			await this.updateCredentials(nodeCredentials, credentialType.name, dataToPersist);
			return Object.assign(credentials, output);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(
			restrictToCredentialDomains(helpers, credentials),
			credentials,
		);
		return (output as ICredentialDataDecryptedObject) ?? undefined;
	}

	private resolveValue(
		parameterValue: string,
		additionalKeys: IWorkflowDataProxyAdditionalKeys,
		workflow: Workflow,
		node: INode,
	): string {
		if (!isExpression(parameterValue)) return parameterValue;
		const returnValue = workflow.expression.getSimpleParameterValue(
			node,
			parameterValue,
			'internal',
			additionalKeys,
			undefined,
			'',
		);
		if (!returnValue) return '';
		return returnValue.toString();
	}

	getParentTypes(typeName: string): string[] {
		return this.credentialTypes.getParentTypes(typeName);
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
		const credentialTypeData = this.credentialTypes.getByName(type);
		if (credentialTypeData.extends === undefined) {
			if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
				return [
					...credentialTypeData.properties,
					{
						displayName: 'oauthTokenData',
						name: 'oauthTokenData',
						type: 'json',
						required: false,
						default: {},
					},
				];
			}
			return credentialTypeData.properties;
		}
		const combineProperties = [] as INodeProperties[];
		for (const credentialsTypeName of credentialTypeData.extends) {
			NodeHelpers.mergeNodeProperties(
				combineProperties,
				this.getCredentialsProperties(credentialsTypeName),
			);
		}
		NodeHelpers.mergeNodeProperties(combineProperties, credentialTypeData.properties);
		return combineProperties;
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
		const credentialsProperties = this.getCredentialsProperties(type);
		const decryptedData = NodeHelpers.getNodeParameters(
			credentialsProperties,
			{ ...decryptedDataOriginal } as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;

		if (decryptedDataOriginal.oauthTokenData !== undefined) {
			decryptedData.oauthTokenData = decryptedDataOriginal.oauthTokenData;
		}
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

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const credentials = this.store.load(nodeCredentials.id, type);
		await credentials.updateData({ oauthTokenData: data.oauthTokenData });
		await this.store.write(nodeCredentials.id!, type, await credentials.getData());
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
