import { parseArgs } from 'node:util';
import { DEMO_TEMPLATE_IDS } from './demo';
import { startSandbox, type Sandbox, type SandboxOptions } from './index';

export const DEFAULT_PORT = 8787;

/** `--port N`, `--port=N`, else AIRSIGN_SANDBOX_PORT, else 8787. */
export function resolvePort(
	argv: string[] = process.argv.slice(2),
	env: NodeJS.ProcessEnv = process.env,
): number {
	const options = { port: { type: 'string' } } as const;
	const { port: flag } = parseArgs({ args: argv, options, strict: false }).values;
	const raw = typeof flag === 'string' ? flag : env.AIRSIGN_SANDBOX_PORT;
	if (raw === undefined || raw === '') return DEFAULT_PORT;
	const port = Number(raw);
	if (!Number.isInteger(port) || port < 0 || port > 65535)
		throw new Error(`Not a port number: ${raw}`);
	return port;
}

export function describeDemo(sandbox: Sandbox): string {
	const { baseUrl, demo } = sandbox;
	return [
		`AirSign sandbox listening on ${baseUrl}`,
		'',
		`  Base URL       ${baseUrl}`,
		`  Client ID      ${demo.clientId}`,
		`  Client secret  ${demo.clientSecret}`,
		`  Access token   ${demo.accessToken}`,
		`                 (organisation ${demo.orgId}, scopes write:sessions write:files, never expires)`,
		`  Control plane  ${baseUrl}/_sandbox/state`,
		`  Templates      ${baseUrl}/_sandbox/templates (3 active demo templates, e.g. Employment contract ${DEMO_TEMPLATE_IDS.employmentContract})`,
		'',
		`  Try: curl -s -H "Authorization: Bearer ${demo.accessToken}" "${baseUrl}/api/v1/Sessions?limit=5"`,
		'',
		'Press Ctrl-C to stop.',
	].join('\n');
}

/** What `npm run sandbox` does, for scripts that want the same sandbox in their own process. */
export async function startDemoSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	return startSandbox({ seedDemoData: true, port: DEFAULT_PORT, ...options });
}

async function main(): Promise<void> {
	let port: number;
	try {
		port = resolvePort();
	} catch (error) {
		console.error((error as Error).message);
		process.exit(2);
	}
	let sandbox: Sandbox;
	try {
		sandbox = await startDemoSandbox({ port });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		console.error(
			code === 'EADDRINUSE'
				? `Port ${port} is already in use. Choose another with --port N or AIRSIGN_SANDBOX_PORT=N.`
				: `Could not start the sandbox: ${(error as Error).message}`,
		);
		process.exit(1);
	}
	console.log(describeDemo(sandbox));

	let stopping = false;
	for (const signal of ['SIGINT', 'SIGTERM'])
		process.on(signal, async () => {
			if (stopping) return;
			stopping = true;
			console.log(`\n${signal}: stopping the sandbox.`);
			process.exit((await sandbox.close().catch(() => 'failed')) ? 1 : 0);
		});
}

if (require.main === module) void main();
