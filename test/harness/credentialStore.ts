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
	add(type: ICredentialType): this {
		return this.set(type.name, type);
	}

	getByName(name: string): ICredentialType {
		const type = this.get(name);
		if (!type) throw new UnexpectedError(`Unknown credential type "${name}" (register it first)`);
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

	/**
	 * Calls of the credentials helper's methods, for assertions ("the token was fetched once"):
	 * `preAuthentication` counts the type's own (token fetches), `preAuthenticationChecks` the helper's.
	 */
	readonly counters = {
		getDecrypted: 0,
		preAuthenticationChecks: 0,
		preAuthentication: 0,
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

	has(id: string): boolean {
		return this.rows.has(id);
	}

	/** Loads as n8n-core `Credentials`, throwing n8n's "not found" error when absent or of another type. */
	load(id: string | null | undefined, type: string): Credentials {
		if (!id) throw new UserError(`Credential for type "${type}" has no ID`);
		const row = this.rows.get(id);
		if (!row || row.type !== type)
			throw new UserError(`Credential with ID "${id}" does not exist for type "${type}".`);
		return new Credentials({ id: row.id, name: row.name }, row.type, row.data);
	}

	private row(id: string): StoredCredentialRow {
		const row = this.rows.get(id);
		if (!row) throw new UserError(`Credential with ID "${id}" does not exist.`);
		return row;
	}

	/** Decrypted data as stored (no defaults, no expression resolution). For assertions. */
	async getData(id: string): Promise<ICredentialDataDecryptedObject> {
		return await this.load(id, this.row(id).type).getData();
	}

	/** Replaces the row's data. */
	async write(id: string, type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		const credentials = this.load(id, type);
		await credentials.setData(data);
		this.row(id).data = credentials.getDataToSave().data!;
	}

	/** Merges `patch` into the stored data (a test may e.g. plant a stale token). */
	async patch(id: string, patch: ICredentialDataDecryptedObject): Promise<void> {
		await this.write(id, this.row(id).type, { ...(await this.getData(id)), ...patch });
	}
}
