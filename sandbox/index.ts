import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxClock } from './clock';
import { createContext } from './context';
import { sandboxControls } from './controlPlane';
import { createRequestListener } from './server';
import type { RequestHook, SandboxOptions } from './types';

export * from './types';
export * from './publicTypes';
export { DEMO_SENDER_PROFILE_ID } from './context';
export { seededRandom } from './clock';
export type { SandboxClock } from './clock';

/** A running sandbox: its address, its state, and the controls tests and demos use. */
export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

export async function startSandbox(options: SandboxOptions = {}) {
	const ctx = createContext(options);
	const { config, clock, demo, other, store } = ctx;

	const server = createServer(createRequestListener(ctx));
	// Never close idle keep-alive connections from this side: a client reusing one just as Node's
	// 5 s timeout closes it gets ECONNRESET. Clients close their own; close() closes the rest.
	server.keepAliveTimeout = 0;
	server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
	await once(server, 'listening'); // rejects on 'error' (a port in use)
	const address = server.address() as AddressInfo;
	const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
	ctx.baseUrl = `http://${host}:${address.port}`;

	return {
		baseUrl: ctx.baseUrl,
		// Keep-alive sockets would hold close() open until they time out.
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
		clock: clock as SandboxClock,
		/** Live options: changes apply to the next request. */
		config,
		demo,
		other,
		...sandboxControls(ctx),
		outbox: store.outbox,
		files: store.files,
		requests: ctx.requests,
		clearRequests: () => void (ctx.requests.length = 0),
		onRequest: (hook: RequestHook) => {
			ctx.hooks.add(hook);
			return () => void ctx.hooks.delete(hook);
		},
	};
}
