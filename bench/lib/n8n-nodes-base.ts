/**
 * n8n's HTTP Request, Split Out and Header Auth from `.cache/n8n` (n8n 2.41.3), given our own
 * n8n-workflow and n8n-core while they load: one engine, one expression engine, one set of errors.
 */
import { existsSync, realpathSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

import type { ICredentialType, INodeType, IVersionedNodeType } from 'n8n-workflow';

/** Where `e2e/install-n8n.mts` puts n8n 2.41.3 (its default profile). */
export const N8N_INSTALL_DIR = path.resolve(__dirname, '../../.cache/n8n');
const NODES_BASE_DIR = path.join(N8N_INSTALL_DIR, 'node_modules', 'n8n-nodes-base');
const SHARED_PACKAGES = ['n8n-workflow', 'n8n-core'];

/** Whether the install is complete (its marker is written last), and not being installed by `npm run check` beside the unit stage. */
export function isN8nInstalled(): boolean {
	return (
		!process.env.AIRSIGN_N8N_INSTALLING &&
		existsSync(path.join(N8N_INSTALL_DIR, '.ready')) &&
		existsSync(path.join(NODES_BASE_DIR, 'package.json'))
	);
}

export interface N8nNodesBase {
	version: string;
	httpRequest: IVersionedNodeType;
	splitOut: INodeType;
	httpHeaderAuth: ICredentialType;
}

type Resolve = (request: string, parent?: { filename?: string }, ...rest: unknown[]) => string;

// Not Extract From File: it does not load here (see peerUploadFromStorage in peer-workflows.ts).
let loaded: N8nNodesBase | undefined;

export function loadN8nNodesBase(): N8nNodesBase {
	if (loaded) return loaded;
	const moduleInternals = Module as unknown as { _resolveFilename: Resolve };
	const original = moduleInternals._resolveFilename;
	// `.cache/n8n` may be a symlink; required files carry their real paths.
	const installDir = realpathSync(N8N_INSTALL_DIR);
	const insideInstall = (file: string | undefined) =>
		file !== undefined && file.startsWith(`${installDir}${path.sep}`);
	moduleInternals._resolveFilename = function (request, parent, ...rest) {
		if (SHARED_PACKAGES.includes(request) && insideInstall(parent?.filename))
			return require.resolve(request);
		return original.call(this, request, parent, ...rest);
	};
	try {
		// CommonJS from a folder known only at run time: loaded through the hook above.
		const load = Module.createRequire(path.join(NODES_BASE_DIR, 'package.json'));
		const from = (relative: string) => load(path.join(NODES_BASE_DIR, 'dist', relative));
		loaded = {
			version: (load(path.join(NODES_BASE_DIR, 'package.json')) as { version: string }).version,
			httpRequest: new (from('nodes/HttpRequest/HttpRequest.node.js').HttpRequest)(),
			splitOut: new (from('nodes/Transform/SplitOut/SplitOut.node.js').SplitOut)(),
			httpHeaderAuth: new (from('credentials/HttpHeaderAuth.credentials.js').HttpHeaderAuth)(),
		};
		return loaded;
	} finally {
		moduleInternals._resolveFilename = original;
	}
}
