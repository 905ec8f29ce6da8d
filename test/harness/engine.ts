/** The engine under test (n8n 2.41.3's, or under `npm run test:n8n1` 1.123.81's `n8n-core-v1`)
 * and the pieces of n8n's DI container it reaches for: n8n's own code and settings. */
import './env-setup';

import { createRequire } from 'node:module';

import { Logger } from '@n8n/backend-common';
import * as n8nConfig from '@n8n/config';
import { Container } from '@n8n/di';
import type { KeyInfo } from 'n8n-core';
import * as n8nCore from 'n8n-core';
import type { INode, INodeExecutionData, IPollFunctions, Workflow } from 'n8n-workflow';

export const ENGINE: 'n8n-2' | 'n8n-1' =
	process.env.AIRSIGN_TEST_ENGINE === 'n8n-1' ? 'n8n-1' : 'n8n-2';

/** `require` as the engine under test resolves it (its own n8n-workflow, @n8n/di, …). */
export const engineRequire: NodeRequire =
	ENGINE === 'n8n-1'
		? createRequire(require.resolve('n8n-core-v1/package.json'))
		: createRequire(__filename);

/** Where the two engines differ, the harness and the tests ask here. */
export const engineDifferences = {
	/** n8n 2.x encrypts credentials with keys behind `EncryptionKeyProxy`; 1.x with the instance key. */
	hasEncryptionKeyTable: ENGINE === 'n8n-2',
	/** n8n 2.x blocks private addresses when N8N_SSRF_PROTECTION_ENABLED is on; 1.x has no such setting. */
	hasSsrfProtection: ENGINE === 'n8n-2',
	/** n8n 2.x keeps a credential's requests, preAuthentication's too, to its own domains. */
	hasCredentialDomainRestriction: ENGINE === 'n8n-2',
	/** 401s one expired client-credentials token costs: n8n 2.9+ renews on the first; older
	 * n8n's transport retries once with the stale token before n8n renews. */
	unauthorizedPerRenewal: ENGINE === 'n8n-2' ? 1 : 2,
	/** The Test button's `responseCode` rules read `error.cause.response`, which n8n-workflow
	 * 1.x's ExecutionBaseError drops (a `cause` class field): 1.x shows n8n's generic text. */
	credentialTestRulesApply: ENGINE === 'n8n-2',
	missingParameterMessage: (displayName: string): RegExp =>
		ENGINE === 'n8n-2'
			? new RegExp(`${displayName}" is required`)
			: /The workflow has issues and cannot be executed/,
	/** A parameter failing its own validation: 2.x quotes its message, 1.x says the workflow has issues. */
	invalidParameterMessage: (message: RegExp): RegExp =>
		ENGINE === 'n8n-2' ? message : /The workflow has issues and cannot be executed/,
};

/** One tick of a polling trigger as the engine's poll scheduler runs it. */
export type PollTick = (testingTrigger: boolean) => Promise<void>;

/** n8n's tick of an active poll trigger: 2.x's `PollTriggerExecutor`; 1.x's unexported closure
 * in `ActiveWorkflows.activatePolling`, repeated here. */
export function createPollTick(
	workflow: Workflow,
	node: INode,
	pollFunctions: IPollFunctions,
): PollTick {
	if (ENGINE === 'n8n-2') {
		return Container.get(n8nCore.PollTriggerExecutor).create(
			workflow,
			node,
			pollFunctions,
			() => true,
		);
	}
	const { TriggersAndPollers } = engineRequire('./dist/execution-engine/triggers-and-pollers') as {
		TriggersAndPollers: new () => {
			runPoll(...args: [Workflow, INode, IPollFunctions]): Promise<INodeExecutionData[][] | null>;
		};
	};
	return async (testingTrigger) => {
		try {
			const response = await Container.get(TriggersAndPollers).runPoll(
				workflow,
				node,
				pollFunctions,
			);
			if (response !== null) pollFunctions.__emit(response);
		} catch (error) {
			if (testingTrigger) throw error;
			pollFunctions.__emitError(error as Error);
		}
	};
}

/** The module whose `sleep` n8n-workflow re-exports (read at call time): a spy on it sees every wait. */
export function sleepModule(): { sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
	const workflowRequire = createRequire(engineRequire.resolve('n8n-workflow'));
	return workflowRequire(ENGINE === 'n8n-2' ? '@n8n/utils/sleep' : './utils') as ReturnType<
		typeof sleepModule
	>;
}

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
