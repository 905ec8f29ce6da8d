// `npm run lint:cloud-support`: fails unless n8n's own `n8n-node cloud-support` says the package is
// eligible for n8n Cloud verification: `n8n.strict: true`, and eslint.config.mjs exactly n8n's
// default, so the project's other folders are kept apart by what `npm run lint` hands to ESLint.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../e2e/lib/proc.mts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(ROOT, 'node_modules', '.bin', 'n8n-node'); // @n8n/node-cli's command

const { code, stdout, stderr } = await runCommand(cli, ['cloud-support'], {
	cwd: ROOT,
	env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
	allowFailure: true,
});
const output = `${stdout}${stderr}`;
const eligible = code === 0 && /Status: eligible for n8n Cloud verification/.test(output);
if (!eligible) {
	process.stderr.write(output);
	console.error(
		'lint:cloud-support: `n8n-node cloud-support` does not report this package as eligible',
	);
	process.exit(1);
}
console.log('lint:cloud-support: eligible for n8n Cloud verification (n8n-node cloud-support)');
