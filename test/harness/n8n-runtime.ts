/** The pieces of n8n's DI container the engine reaches for: n8n's own code and settings. */
import './env-setup';

import { Logger } from '@n8n/backend-common';
import * as n8nConfig from '@n8n/config';
import { Container } from '@n8n/di';
import type { KeyInfo } from 'n8n-core';
import * as n8nCore from 'n8n-core';

import { engineDifferences } from './engine';

const { BinaryDataConfig, BinaryDataService, Cipher, InstanceSettings } = n8nCore;

export type BinaryDataMode = 'default' | 'filesystem';

let ready: Promise<void> | undefined;
let currentBinaryMode: BinaryDataMode | undefined;

/**
 * n8n's Logger (which wires n8n-workflow's `LoggerProxy`), `InstanceSettings` (key in the temp
 * user folder), binary data, SSRF protection off as in a fresh install. Once; every entry awaits it.
 */
export async function ensureN8nRuntime(): Promise<void> {
	ready ??= (async () => {
		Container.get(Logger);
		const instanceSettings = Container.get(InstanceSettings);
		if (engineDifferences.hasEncryptionKeyTable) {
			// The CLI backs the encryption-key proxy with its key table. The harness offers the
			// instance key alone, as a fresh install with a legacy (no-prefix) key has it.
			const cipher = Container.get(Cipher);
			const instanceKey: KeyInfo = {
				id: 'instance',
				value: cipher.encryptDEKWithInstanceKey(instanceSettings.encryptionKey),
				algorithm: 'aes-256-cbc',
				format: 'no-prefix',
			};
			Container.get(n8nCore.EncryptionKeyProxy).setProvider({
				getActiveKey: async () => instanceKey,
				getKeyById: async (id) => (id === instanceKey.id ? instanceKey : null),
				getLegacyKey: async () => instanceKey,
			});
		}
		// Pinned whatever the shell exports: the sandbox is on 127.0.0.1.
		if (engineDifferences.hasSsrfProtection)
			Container.get(n8nConfig.SsrfProtectionConfig).enabled = false;
		await setBinaryDataMode('default');
	})();
	await ready;
}

/** n8n's `N8N_DEFAULT_BINARY_DATA_MODE`, process-wide: base64 in the item, or files and an id. */
export async function setBinaryDataMode(mode: BinaryDataMode): Promise<void> {
	if (currentBinaryMode === mode) return;
	const config = Container.get(BinaryDataConfig);
	config.mode = mode;
	await Container.get(BinaryDataService).init();
	currentBinaryMode = mode;
}

/** n8n's `N8N_SSRF_PROTECTION_ENABLED` (read per request): on, loopback (the sandbox) is refused. */
export async function setSsrfProtection(enabled: boolean): Promise<void> {
	await ensureN8nRuntime();
	if (!engineDifferences.hasSsrfProtection)
		throw new Error('this n8n engine has no SSRF protection');
	Container.get(n8nConfig.SsrfProtectionConfig).enabled = enabled;
}
