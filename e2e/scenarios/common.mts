// Shared by the tracks of e2e/scenarios.mts: what the entry hands each track, and the run of the
// tracks in one n8n user folder with one `n8n start`.
import type { Checks } from '../lib/checks.mts';
import type { ExampleWorkflow } from '../lib/examples.mts';
import type { CredentialJson, Workflow } from '../lib/fixtures.mts';
import {
	activateWorkflow,
	getFreePort,
	importCredential,
	importWorkflow,
	installPackageIntoN8n,
	makeUserFolder,
	removeUserFolder,
	setupOwner,
	startN8n,
} from '../lib/n8n.mts';
import { describeExit } from '../lib/proc.mts';
import { startSandboxProcess } from '../lib/sandbox.mts';

export const SESSIONS = '/api/v1/Sessions';

export type Sandbox = Awaited<ReturnType<typeof startSandboxProcess>>;
export type N8nInstance = Awaited<ReturnType<typeof startN8n>>;

/** What the entry hands every track: its options, the examples by file name, its log and checks. */
export type ScenarioContext = Pick<Checks, 'check' | 'step'> & {
	keep: boolean;
	/** --scheduler: check d alone, on n8n 2.x's database-backed poll scheduler. */
	scheduler: boolean;
	/** The environment of the running n8n's commands and start (SCHEDULER_ENV or none). */
	startEnv: Record<string, string>;
	examples: Record<string, ExampleWorkflow>;
	log: (msg: string) => void;
};

/** What every track's body is handed: its own sandbox and the run's n8n user folder. */
type TrackRun = { sandbox: Sandbox; userFolder: string };
/** What a track of the running n8n's body is handed besides: n8n and the owner's cookie. */
export type ServedRun = TrackRun & { instance: N8nInstance; cookie: string };

/** What a track of the running n8n imports before the start, and what it stops after n8n. */
type TrackImports = {
	credentials: CredentialJson[];
	workflows: Workflow[];
	activate?: string[];
	stop?: () => Promise<void>;
};

/**
 * A track: its name, its summary line if it fails before its checks, the examples it runs (file
 * names), and its body. A track of the running n8n says what it puts into n8n before the start: its
 * credentials (its AirSign one names its sandbox), its workflows, and the ones the CLI activates;
 * its body gets n8n and a cookie.
 */
export type ScenarioTrack = { label: string; examples: string[] } & (
	| { name: 'headless'; run: (ctx: ScenarioContext, t: TrackRun) => Promise<void> }
	| {
			name: 'live' | 'events' | 'agent';
			imports: (ctx: ScenarioContext, sandbox: Sandbox) => TrackImports | Promise<TrackImports>;
			run: (ctx: ScenarioContext, t: ServedRun) => Promise<void>;
	  }
);

/**
 * Runs `tracks` side by side in one n8n user folder holding the package from `tarball`, each
 * against its own sandbox. The tracks with `imports` share one `n8n start`. The folder's first n8n
 * command runs alone (it writes `.n8n/config`, which later ones read). Resolves each track's
 * outcome; then stops n8n and the sandboxes and removes the folder unless --keep.
 */
export async function runScenarios(
	ctx: ScenarioContext,
	tarball: string,
	tracks: ScenarioTrack[],
): Promise<PromiseSettledResult<void>[]> {
	const { step, startEnv: env } = ctx;
	const userFolder = makeUserFolder();
	const sandboxes = tracks.map((t) =>
		step(`${t.name}: sandbox started`, async () =>
			startSandboxProcess({ port: await getFreePort() }),
		),
	);
	let instance: N8nInstance | undefined;
	let imported: Promise<TrackImports[]> = Promise.resolve([]);
	try {
		const installed = step('package installed', () => installPackageIntoN8n(userFolder, tarball));
		const served = tracks.flatMap((t, i) => ('imports' in t ? [{ t, sandbox: sandboxes[i] }] : []));
		const names = served.map(({ t }) => t.name).join(', ');
		imported = (async () => {
			if (!served.length) return [];
			const [, ...boxes] = await Promise.all([installed, ...served.map((s) => s.sandbox)]);
			const all = await Promise.all(served.map(({ t }, i) => t.imports(ctx, boxes[i])));
			const credentials = all.flatMap((a) => a.credentials);
			await step(`${names}: credentials imported (client credentials → their sandboxes)`, () =>
				importCredential(userFolder, credentials, { env }),
			);
			return all;
		})();
		const running = (async () => {
			const all = await imported;
			if (!all.length) return undefined;
			const workflows = all.flatMap((a) => a.workflows);
			await step(`${names}: workflows imported, the trigger activated`, async () => {
				await importWorkflow(userFolder, workflows, { env });
				for (const id of all.flatMap((a) => a.activate ?? []))
					await activateWorkflow(userFolder, id, { env });
			});
			instance = await step('n8n start until /healthz/readiness', () =>
				startN8n({ userFolder, env }),
			);
			return { instance, cookie: (await setupOwner(instance.url)).cookie };
		})();
		const configWritten = imported.catch(() => undefined);
		return await Promise.allSettled(
			tracks.map(async (t, i) => {
				if (!('imports' in t)) {
					const [sandbox] = await Promise.all([sandboxes[i], installed, configWritten]);
					return t.run(ctx, { sandbox, userFolder });
				}
				const [sandbox, n8n] = await Promise.all([sandboxes[i], running]);
				await t.run(ctx, { sandbox, userFolder, ...n8n! });
			}),
		);
	} finally {
		if (instance) ctx.log(`n8n stopped (${describeExit(await instance.stop())})`);
		for (const a of await imported.catch(() => [])) await a.stop?.();
		for (const s of await Promise.allSettled(sandboxes))
			if (s.status === 'fulfilled') await s.value.stop();
		if (ctx.keep) ctx.log(`kept ${userFolder}`);
		else removeUserFolder(userFolder);
	}
}
