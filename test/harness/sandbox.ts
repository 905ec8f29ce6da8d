/** The tests' one sandbox starter: one in-process sandbox per file, reset before each test. */
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';

import { startSandbox, type Sandbox, type SandboxOptions } from '../../sandbox';

export interface UseSandboxOptions extends SandboxOptions {
	/** n8n's `Date` (not its timers) follows the sandbox's clock: the trigger's budget window is
	 * read on n8n's clock, and its tests move both through virtual hours. */
	followClock?: boolean;
}

export function useSandbox({ followClock, ...options }: UseSandboxOptions = {}): () => Sandbox {
	let sandbox: Sandbox | undefined;
	beforeAll(async () => {
		sandbox = await startSandbox(options);
	});
	afterAll(async () => {
		await sandbox?.close();
	});
	const get = () => {
		if (!sandbox) throw new Error('sandbox not started');
		return sandbox;
	};
	beforeEach(() => {
		get().reset();
		if (followClock) followSandboxClock(get());
	});
	if (followClock) afterEach(() => vi.useRealTimers());
	return get;
}

const followed = new WeakSet<object>();

function followSandboxClock(sandbox: Sandbox): void {
	vi.useFakeTimers({ toFake: ['Date'], now: sandbox.clock.now() });
	if (followed.has(sandbox.clock)) return;
	followed.add(sandbox.clock);
	// `advance` goes through `set`, so both move n8n's clock along.
	const set = sandbox.clock.set.bind(sandbox.clock);
	sandbox.clock.set = (time) => {
		set(time);
		if (vi.isFakeTimers()) vi.setSystemTime(sandbox.clock.now());
	};
}

/** The AirSign API credential's data for a sandbox's demo organisation: its token… */
export const tokenCredential = (
	sandbox: Sandbox,
	accessToken = sandbox.demo.accessToken,
	baseUrl = sandbox.baseUrl,
) => ({ authentication: 'accessToken', accessToken, baseUrl });

/** …or its client ID and secret. */
export const clientCredential = (
	sandbox: Sandbox,
	clientSecret = sandbox.demo.clientSecret,
	baseUrl = sandbox.baseUrl,
) => ({
	authentication: 'clientCredentials',
	clientId: sandbox.demo.clientId,
	clientSecret,
	baseUrl,
});
