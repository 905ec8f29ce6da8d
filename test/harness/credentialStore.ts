/**
 * The harness's credential "database": a registry of credential types (what `getByName` does in
 * n8n's CLI) and an in-memory table, encrypted with n8n-core's own `Credentials` class like the
 * `credentials_entity` table. The CLI's CredentialsHelper over it is in credentials.ts.
 */
import './env-setup';

import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	INodeCredentialsDetails,
} from 'n8n-workflow';
import { UnexpectedError, UserError } from 'n8n-workflow';

import { ensureN8nRuntime } from './n8n-runtime';

/** Credential types by name. */
export class CredentialTypeRegistry extends Map<string, ICredentialType> {
	constructor(types: ICredentialType[] = []) {
		super(types.map((type) => [type.name, type]));
	}

	add(type: ICredentialType): this {
		return this.set(type.name, type);
	}

	getByName(name: string): ICredentialType {
		const type = this.get(name);
		if (!type) {
			throw new UnexpectedError(`Unknown credential type "${name}" (register it with the harness)`);
		}
		return type;
	}
}

/** A row of the credential table; `data` is n8n-encrypted, as in the DB. */
export interface StoredCredentialRow {
	id: string;
	name: string;
	type: string;
	data: string;
}

/** The credential table of one simulated n8n instance, by id. */
export class CredentialStore {
	private readonly rows = new Map<string, StoredCredentialRow>();

	private nextId = 1;

	/** Calls a test can assert on ("the token was fetched once", ...). */
	readonly counters = {
		/** `credentialsHelper.getDecrypted` (n8n loads credentials per node and item). */
		getDecrypted: 0,
		/** `credentialsHelper.preAuthentication`: one per authenticated request, one per 401 retry. */
		preAuthenticationChecks: 0,
		/** The credential type's own `preAuthentication` (token fetches). */
		preAuthentication: 0,
		/** `credentialsHelper.updateCredentials` (tokens persisted). */
		updateCredentials: 0,
		authenticate: 0,
	};

	/** Saves a credential; returns its reference for `node.credentials`. */
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

	/** Replaces the row's data. */
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
}
