// The package installed as n8n 2.x installs it from its environment (N8N_COMMUNITY_PACKAGES with
// N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV=true), from the local registry (lib/registry.mts) reached as
// registry.npmjs.org (its routeNpmjsTo). In n8n 2.41.3 only a main reads the variable: it installs
// with npm and records the package in the database; a worker installs at its start what the
// database lists (N8N_REINSTALL_MISSING_PACKAGES=true), unverified (no checksum is stored).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { installedPackageDir, PACKAGE_NAME, tarballManifest, waitForTypes } from './n8n.mts';
import { routeNpmjsTo, startRegistry, tarballFetched, type NpmjsRoute } from './registry.mts';
import type { Postgres } from './services.mts';

export interface EnvInstallSource {
	version: string;
	route: NpmjsRoute;
	/** What every n8n process of the cluster gets. */
	env: Record<string, string>;
	stop: () => Promise<void>;
}

/** Publishes `tarball` to a new local registry and routes n8n's installer to it. */
export async function publishForEnvInstall(tarball: string): Promise<EnvInstallSource> {
	const { version } = tarballManifest(tarball); // the tier may be given any tarball
	// npm's integrity of the tarball: the main checks the registry's against it before installing
	const checksum = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
	const registry = await startRegistry();
	let route: NpmjsRoute;
	try {
		await registry.publish(tarball);
		route = await routeNpmjsTo(registry.url);
	} catch (err) {
		await registry.stop();
		throw err;
	}
	return {
		version,
		route,
		env: {
			// JSON, not `name@version`: n8n refuses to start on anything else
			N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE_NAME, version, checksum }]),
			N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
			// workers install what the main recorded only with this
			N8N_REINSTALL_MISSING_PACKAGES: 'true',
			...route.env,
		},
		stop: async () => {
			await route.stop();
			await registry.stop();
		},
	};
}

/** The package as installed in an n8n user folder: its version and the nodes folder's ledger. */
function installedIn(userFolder: string): { version?: string; ledger?: string } {
	const nodes = path.join(userFolder, '.n8n', 'nodes');
	const pkg = path.join(installedPackageDir(userFolder), 'package.json');
	if (!existsSync(pkg)) return { version: undefined, ledger: undefined };
	const ledger = JSON.parse(readFileSync(path.join(nodes, 'package.json'), 'utf8'));
	return {
		version: JSON.parse(readFileSync(pkg, 'utf8')).version,
		ledger: ledger.dependencies?.[PACKAGE_NAME],
	};
}

/**
 * That the package landed by the environment path only: each process logged its own install, each
 * user folder holds `version`, PostgreSQL records both nodes, the main's types list them, and the
 * tarball came through the route. Returns a one-line summary.
 */
export async function assertEnvInstall({
	source,
	instances,
	mainName,
	pg,
}: {
	source: EnvInstallSource;
	instances: Record<string, { instance: { output: () => string }; userFolder: string }>;
	mainName: string;
	pg: Pick<Postgres, 'query'>;
}): Promise<string> {
	const { version } = source;
	const problems: string[] = [];
	for (const [name, { instance, userFolder }] of Object.entries(instances)) {
		const got = installedIn(userFolder);
		if (got.version !== version || got.ledger !== version)
			problems.push(`${name}: installed ${got.version ?? 'nothing'} (ledger ${got.ledger})`);
		const line =
			name === mainName
				? `Installed community package '${PACKAGE_NAME}@${version}' from env`
				: `Community package installed: ${PACKAGE_NAME}`;
		if (!instance.output().includes(line)) problems.push(`${name}: no "${line}" in its log`);
	}
	const rows = await pg.query<{ version: string; type: string }>(
		`select p."installedVersion" as version, n.type from installed_packages p
		 join installed_nodes n on n."package" = p."packageName" where p."packageName" = $1`,
		[PACKAGE_NAME],
	);
	const types = rows.map((r) => r.type).sort();
	const wanted = [`${PACKAGE_NAME}.airSign`, `${PACKAGE_NAME}.airSignTrigger`];
	if (rows.some((r) => r.version !== version) || wanted.some((t) => !types.includes(t)))
		problems.push(`PostgreSQL installed_packages/nodes: ${JSON.stringify(rows)}`);
	if (!tarballFetched(source.route, PACKAGE_NAME, version))
		problems.push(
			`no tarball fetched through the route: ${JSON.stringify(source.route.requests())}`,
		);
	if (problems.length)
		throw new Error(`not installed by N8N_COMMUNITY_PACKAGES: ${problems.join('; ')}`);
	await waitForTypes(
		instances[mainName].userFolder,
		'nodes',
		(list: { name: string }[]) => wanted.every((t) => list.some((n) => n.name === t)),
		{ timeoutMs: 60_000 },
	);
	const asked = source.route.requests().length;
	return `${PACKAGE_NAME}@${version} installed from the registry on ${Object.keys(instances).join(', ')}; PostgreSQL lists ${types.join(', ')}; ${asked} registry requests, the tarball among them`;
}
