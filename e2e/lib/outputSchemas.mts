// The output schemas of an installed package and the address n8n's editor fetches each from
// (/schemas/<node type>/<x.y.z>[/<resource>/<operation>].json; docs/compatibility.md).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A JSON schema as the package ships it: an object's fields are under `properties`. */
export interface JsonSchema {
	properties?: Record<string, JsonSchema>;
	[keyword: string]: unknown;
}

/** One output schema of the package: its file under __schema__, its address and its content. */
export interface OutputSchema {
	file: string;
	url: string;
	schema: JsonSchema;
}

interface PackageJson {
	name: string;
	n8n: { nodes: string[] };
}

/** The package's schemas: with a resource and operation the action node's, else the trigger's. */
export function outputSchemas(packageDir: string): OutputSchema[] {
	const pkg: PackageJson = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const found: (OutputSchema & { dir: string })[] = [];
	for (const nodeFile of pkg.n8n.nodes) {
		const dir = path.join(packageDir, path.dirname(nodeFile), '__schema__');
		if (!existsSync(dir) || found.some((f) => f.dir === dir)) continue;
		for (const entry of readdirSync(dir, { recursive: true })) {
			const file = String(entry).split(path.sep).join('/');
			const m = /^v(\d+\.\d+\.\d+)(?:\/([^/]+)\/([^/]+))?\.json$/.exec(file);
			if (!m) continue;
			const type = `${pkg.name}.${m[2] ? 'airSign' : 'airSignTrigger'}`;
			found.push({
				dir,
				file,
				url: `/schemas/${[type, m[1], m[2], m[3]].filter(Boolean).join('/')}.json`,
				schema: JSON.parse(readFileSync(path.join(dir, file), 'utf8')),
			});
		}
	}
	return found.map(({ file, url, schema }) => ({ file, url, schema }));
}
