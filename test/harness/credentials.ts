/**
 * Credential plumbing for the harness: a registry of credential types, an in-memory
 * credential "database" (encrypted with n8n-core's own `Credentials` class, like the
 * `credentials_entity` table), and a `CredentialsHelper` that behaves like the one in
 * n8n's CLI (packages/cli/src/credentials-helper.ts).
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

import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	ICredentialType,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
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
import { ensureN8nRuntime } from './n8n-runtime';

/** Credential types known to the harness, by `name` (what `getByName` does in the CLI). */
export class CredentialTypeRegistry {
	private readonly types = new Map<string, ICredentialType>();

	constructor(types: ICredentialType[] = []) {
		for (const type of types) this.add(type);
	}

	add(type: ICredentialType): this {
		this.types.set(type.name, type);
		return this;
	}

	has(name: string): boolean {
		return this.types.has(name);
	}

	getByName(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type) {
			throw new UnexpectedError(`Unknown credential type "${name}" (register it with the harness)`);
		}
		return type;
	}

	/** All ancestors through `extends`, as n8n's CredentialTypes.getParentTypes does. */
	getParentTypes(name: string): string[] {
		const type = this.types.get(name);
		if (!type?.extends) return [];
		const parents = [...type.extends];
		for (const parent of type.extends) parents.push(...this.getParentTypes(parent));
		return parents;
	}
}

/** A row of the in-memory credential table. `data` is n8n-encrypted, as in the DB. */
export interface StoredCredentialRow {
	id: string;
	name: string;
	type: string;
	data: string;
}

/** Counters a test can assert on ("the token was fetched once", ...). */
export interface CredentialStoreCounters {
	/** `credentialsHelper.getDecrypted` calls (n8n loads credentials per node/item). */
	getDecrypted: number;
	/** `credentialsHelper.preAuthentication` calls (n8n-core makes one per authenticated request, plus one per 401 retry). */
	preAuthenticationChecks: number;
	/** Times the credential type's own `preAuthentication` actually ran (token fetches). */
	preAuthentication: number;
	/** `credentialsHelper.updateCredentials` calls (tokens persisted). */
	updateCredentials: number;
	/** `credentialsHelper.authenticate` calls. */
	authenticate: number;
}

const emptyCounters = (): CredentialStoreCounters => ({
	getDecrypted: 0,
	preAuthenticationChecks: 0,
	preAuthentication: 0,
	updateCredentials: 0,
	authenticate: 0,
});

/**
 * The in-memory credential store ("database"), keyed by credential id. Share one
 * store between several `runNode` / polling harness calls to model one n8n instance:
 * a token that one execution fetched and persisted is read by the next.
 */
export class CredentialStore {
	private readonly rows = new Map<string, StoredCredentialRow>();

	private nextId = 1;

	readonly counters: CredentialStoreCounters = emptyCounters();

	/** Saves a credential (encrypting it with n8n-core's `Credentials`); returns its reference for `node.credentials`. */
	async add(input: {
		type: string;
		data: ICredentialDataDecryptedObject;
		id?: string;
		name?: string;
	}): Promise<INodeCredentialsDetails & { id: string }> {
		await ensureN8nRuntime();
		const id = input.id ?? String(this.nextId++);
		const name = input.name ?? `${input.type} account ${id}`;
		const credentials = new Credentials({ id, name }, input.type);
		await credentials.setData(structuredClone(input.data));
		this.rows.set(id, { id, name, type: input.type, data: credentials.getDataToSave().data! });
		return { id, name };
	}

	/** The stored row (encrypted data), or undefined. */
	getRow(id: string): StoredCredentialRow | undefined {
		return this.rows.get(id);
	}

	/** Loads as n8n-core `Credentials`, throwing n8n's "not found" error when absent or of another type. */
	load(id: string | null | undefined, type: string): Credentials {
		if (!id) {
			throw new UserError(`Credential for type "${type}" has no ID`);
		}
		const row = this.rows.get(id);
		if (!row || row.type !== type) {
			throw new UserError(`Credential with ID "${id}" does not exist for type "${type}".`);
		}
		return new Credentials({ id: row.id, name: row.name }, row.type, row.data);
	}

	/** Decrypted data as stored (no defaults, no expression resolution). For assertions. */
	async getData(id: string): Promise<ICredentialDataDecryptedObject> {
		const row = this.rows.get(id);
		if (!row) throw new UserError(`Credential with ID "${id}" does not exist.`);
		return await this.load(id, row.type).getData();
	}

	/** Encrypts and writes `data` (the whole data object) to the row. */
	async write(id: string, type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		const credentials = this.load(id, type);
		await credentials.setData(data);
		const row = this.rows.get(id)!;
		row.data = credentials.getDataToSave().data!;
	}

	/** Merges `patch` into the stored data (a test may e.g. plant a stale token). */
	async patch(id: string, patch: ICredentialDataDecryptedObject): Promise<void> {
		const row = this.rows.get(id);
		if (!row) throw new UserError(`Credential with ID "${id}" does not exist.`);
		await this.write(id, row.type, { ...(await this.getData(id)), ...patch });
	}

	resetCounters(): void {
		Object.assign(this.counters, emptyCounters());
	}
}

/** Node type used only for the credential-expression mock workflow (the CLI's `createMockNodeTypes`). */
const mockNodeTypes: INodeTypes = {
	getKnownTypes: () => ({}),
	getByName: () => mockNodeType,
	getByNameAndVersion: () => mockNodeType,
};
const mockNodeType: INodeType = {
	description: {
		displayName: 'Mock',
		name: 'mock',
		group: [],
		version: 1,
		description: '',
		defaults: {},
		inputs: [],
		outputs: [],
		properties: [],
	},
};
const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

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
		let decryptedData = NodeHelpers.getNodeParameters(
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
