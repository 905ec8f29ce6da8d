/**
 * One-time set-up of the pieces of n8n's dependency-injection container that the
 * execution engine reaches for. Everything here is n8n's own code configured through
 * n8n's own settings objects; nothing is monkey-patched.
 */
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
 * Instantiates n8n's Logger (this also wires `LoggerProxy`, which n8n-workflow logs
 * through), `InstanceSettings` (encryption key in the harness temp folder) and the
 * binary-data service, and pins SSRF protection to the default of a fresh n8n install.
 * Idempotent; every harness entry point awaits it.
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
		// A default n8n install has SSRF protection OFF (N8N_SSRF_PROTECTION_ENABLED=false),
		// so requests to 127.0.0.1 (the sandbox) go out. Pin that default even if the
		// developer's shell exported the variable; tests that want the protection call
		// `configureSsrfProtection`.
		if (engineDifferences.hasSsrfProtection)
			Container.get(n8nConfig.SsrfProtectionConfig).enabled = false;
		await setBinaryDataMode('default');
	})();
	await ready;
}

/**
 * Switches n8n's binary-data mode the way `N8N_DEFAULT_BINARY_DATA_MODE` does:
 * `default` keeps bytes base64 in `binary.data`; `filesystem` makes n8n-core's
 * BinaryDataService write them under the harness temp folder and keep only an id.
 * Process-wide: do not run executions with different modes concurrently.
 */
export async function setBinaryDataMode(mode: BinaryDataMode): Promise<void> {
	if (currentBinaryMode === mode) return;
	const config = Container.get(BinaryDataConfig);
	config.mode = mode;
	await Container.get(BinaryDataService).init();
	currentBinaryMode = mode;
}

/**
 * Turns n8n's own SSRF protection on or off (`N8N_SSRF_PROTECTION_ENABLED`; the flag is
 * read per request). With it on and the default block list, loopback (the sandbox) is
 * refused, exactly as in a hardened n8n instance. Default in the harness: off, like a
 * fresh n8n install.
 */
export async function setSsrfProtection(enabled: boolean): Promise<void> {
	await ensureN8nRuntime();
	if (!engineDifferences.hasSsrfProtection)
		throw new Error('this n8n engine has no SSRF protection');
	Container.get(n8nConfig.SsrfProtectionConfig).enabled = enabled;
}
