/**
 * Which n8n engine the tests run on, in one place. `npm test` runs the engine of n8n 2.41.3
 * (n8n-workflow 2.41.0, which n8n 2.41.3 pins, and n8n-core 2.41.1: 2.41.3 pins n8n-core 2.41.2,
 * which the registry copy here lacks; see docs/compatibility.md). These are the dev dependencies. `npm run test:n8n1` runs the
 * same engine tests on the one that n8n 1.123.81 pins (n8n-core 1.122.48 and, through it,
 * n8n-workflow 1.120.31), installed as the alias `n8n-core-v1`; vitest.n8n1.config.ts points the
 * imports of n8n-core, n8n-workflow and the @n8n packages at that engine's copies.
 */
import { createRequire } from 'node:module';

import { Container } from '@n8n/di';
import * as n8nCore from 'n8n-core';
import type { INode, INodeExecutionData, IPollFunctions, Workflow } from 'n8n-workflow';

export type EngineName = 'n8n-2' | 'n8n-1';

export const ENGINE: EngineName = process.env.AIRSIGN_TEST_ENGINE === 'n8n-1' ? 'n8n-1' : 'n8n-2';

/** `require` as the engine under test resolves it (its own n8n-workflow, @n8n/di, …). */
export const engineRequire: NodeRequire =
	ENGINE === 'n8n-1'
		? createRequire(require.resolve('n8n-core-v1/package.json'))
		: createRequire(__filename);

/**
 * Where the two engines' internals differ, the harness asks here. Each entry names the n8n
 * versions and what the harness does on each.
 */
export const engineDifferences = {
	/**
	 * n8n 2.x encrypts credentials with keys from a key table behind `EncryptionKeyProxy`, which
	 * the CLI fills; n8n 1.x encrypts with the instance's key directly and has no proxy.
	 */
	hasEncryptionKeyTable: ENGINE === 'n8n-2',
	/** n8n 2.x blocks private addresses when N8N_SSRF_PROTECTION_ENABLED is on; 1.x has no such setting. */
	hasSsrfProtection: ENGINE === 'n8n-2',
	/**
	 * n8n 2.x lets a credential restrict its requests to its own domains, and its CLI applies that
	 * to the preAuthentication hook too; n8n 1.x has no such restriction.
	 */
	hasCredentialDomainRestriction: ENGINE === 'n8n-2',
	/**
	 * 401 answers one expired client-credentials token costs. n8n 2.9+ renews on the first
	 * (`ignoreHttpStatusErrors.except`); older n8n hands it back, and the transport's second
	 * try, with error statuses not accepted, meets the stale token once more before n8n renews.
	 */
	unauthorizedPerRenewal: ENGINE === 'n8n-2' ? 1 : 2,
	/**
	 * The credential Test button maps a status to the credential's `responseCode` rule through
	 * `error.cause.response`. n8n-workflow 1.x's ExecutionBaseError redeclares `cause` as a class
	 * field, which drops an Error cause, so 1.x shows n8n's generic text for that status instead.
	 */
	credentialTestRulesApply: ENGINE === 'n8n-2',
	/** How the engine refuses to run a node whose required parameter is empty. */
	missingParameterMessage: (displayName: string): RegExp =>
		ENGINE === 'n8n-2'
			? new RegExp(`${displayName}" is required`)
			: /The workflow has issues and cannot be executed/,
	/**
	 * How the engine refuses a parameter that fails its own validation (a resource locator's
	 * regex): n8n 2.x quotes the parameter's message, n8n 1.x only says the workflow has issues.
	 */
	invalidParameterMessage: (message: RegExp): RegExp =>
		ENGINE === 'n8n-2' ? message : /The workflow has issues and cannot be executed/,
};

interface V1TriggersAndPollers {
	runPoll(
		workflow: Workflow,
		node: INode,
		pollFunctions: IPollFunctions,
	): Promise<INodeExecutionData[][] | null>;
}

/** One tick of a polling trigger as the engine's poll scheduler runs it. */
export type PollTick = (testingTrigger: boolean) => Promise<void>;

/**
 * The code n8n runs on every tick of an active polling trigger. n8n 2.x has it as a service
 * (`PollTriggerExecutor`); in n8n-core 1.x it is the closure `executeTrigger` inside
 * `ActiveWorkflows.activatePolling`, not exported, so the harness repeats its few lines: run
 * the node's poll(), emit a non-null answer, report a thrown error (or rethrow it for a test run).
 */
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
	// Not exported by n8n-core 1.x's index: loaded from its file in that package.
	const { TriggersAndPollers } = engineRequire('./dist/execution-engine/triggers-and-pollers') as {
		TriggersAndPollers: new () => V1TriggersAndPollers;
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

/**
 * The module whose `sleep` n8n-workflow re-exports (a getter, read at call time), so that a spy
 * on it sees every wait a node asks for: `@n8n/utils/sleep` in n8n 2.x, n8n-workflow's own
 * utils in 1.x.
 */
export function sleepModule(): { sleep: (ms: number, signal?: AbortSignal) => Promise<void> } {
	const workflowRequire = createRequire(engineRequire.resolve('n8n-workflow'));
	return workflowRequire(ENGINE === 'n8n-2' ? '@n8n/utils/sleep' : './utils') as ReturnType<
		typeof sleepModule
	>;
}
