import type { SandboxContext } from './context';
import type { Reply } from './http';

const PAGE = /^\/app\/(sessions|templates)\/([^/]+)\/edit$/;

/**
 * The pages a draftUrl or editorUrl points at: AirSign's editor in real life, here a short
 * read-only page, so that a link in a workflow's output opens something. No auth (a browser
 * link); null for any other path.
 */
export function editorPage(ctx: SandboxContext, path: string): Reply | null {
	const match = PAGE.exec(path);
	if (!match) return null;
	const [, kind, id] = match;
	const item =
		kind === 'sessions'
			? ctx.store.sessions.get(id.toLowerCase())
			: ctx.templates.templates.get(id.toLowerCase());
	const escape = (text: string) =>
		text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
	const body = item
		? `<h1>${escape(item.name)}</h1><p>${kind === 'sessions' ? 'Session' : 'Template'} ${escape(id)}, status ${escape(item.status)}.</p><p>The AirSign sandbox has no editor: in AirSign this page is where the ${kind === 'sessions' ? 'draft' : 'template'} is reviewed before it is sent or activated.</p>`
		: `<h1>Not found</h1><p>No ${kind.slice(0, -1)} ${escape(id)} in the sandbox.</p>`;
	return {
		status: item ? 200 : 404,
		rawBody: `<!doctype html><meta charset="utf-8"><title>AirSign sandbox</title>${body}`,
		headers: { 'Content-Type': 'text/html; charset=utf-8' },
	};
}
