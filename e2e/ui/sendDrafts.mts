// UI tier step 4: the example "AirSign: send every draft" run from the editor. Its output lists a
// row for every draft: invitations sent, and the incomplete drafts' mapped errors. Checks the
// node's themed icon on the canvas; saves the picture output-table.
import type { Locator, Page } from 'playwright-core';
import type { Sandbox, Shot, Theme } from './checks.mts';
import type { DevUrls } from './devServer.mts';
import {
	byTestId,
	canvasNode,
	closeNode,
	fail,
	openNode,
	openWorkflow,
	UI_TIMEOUT_MS,
} from './editor.mts';

const SEND_DRAFTS_WORKFLOW = 'AirSignExSendDr1';

/** What the step reads of a session the sandbox returns. */
interface SessionSummary {
	sessionId: string;
	name: string;
}

export async function sendEveryDraft(
	page: Page,
	dev: DevUrls,
	sandbox: Sandbox,
	theme: Theme,
	shot: Shot,
): Promise<void> {
	// A complete draft of this run's own, so that each theme's run sends something.
	const fresh: SessionSummary = await sandbox.createSession({
		name: `Contract for the ${theme} theme`,
		recipients: [{ name: 'Ann Example', email: `ann.${theme}@example.com` }],
	});
	const drafts: SessionSummary[] = await sandbox.listSessions({ status: 'draft' });
	const outboxBefore: number = (await sandbox.outbox()).length;
	await openWorkflow(page, dev.n8nUrl, SEND_DRAFTS_WORKFLOW);
	for (const [name, subtitle] of [
		['Find drafts', 'Get many sessions'],
		['Send draft', 'Send a session'],
	])
		await canvasNode(page, name).getByText(subtitle, { exact: true }).waitFor();
	await expectThemedIcon(canvasNode(page, 'Send draft'), theme);
	await byTestId(page, 'execute-workflow-button').click();
	await byTestId(canvasNode(page, 'Send draft'), 'canvas-node-status-success').waitFor();
	const ndv = await openNode(page, 'Send draft');
	const output = byTestId(ndv, 'output-panel');
	await output.getByText('Table', { exact: true }).first().click();
	const table = output.locator('table').first();
	await table.waitFor();
	const text = await table.innerText();
	const problems: string[] = [];
	for (const d of drafts)
		if (!text.includes(d.sessionId)) problems.push(`no row for draft ${d.sessionId} ("${d.name}")`);
	for (const code of ['INCOMPLETE_RECIPIENTS', 'NO_RECIPIENTS', 'SELF_SIGN_ONLY'])
		if (!text.includes(code)) problems.push(`no error item with code ${code}`);
	if (!text.includes('pending')) problems.push('no sent session (status pending)');
	const sent: number = (await sandbox.outbox()).length - outboxBefore;
	if (!(sent >= 1)) problems.push(`no invitation in the sandbox outbox (${sent})`);
	if (!drafts.some((d) => d.sessionId === fresh.sessionId))
		problems.push('the new draft was not listed');
	if (problems.length)
		fail(`output of "Send draft":\n${problems.join('\n')}\n--- table ---\n${text.slice(0, 3000)}`);
	// The picture a user is glad to see: the items that failed, each session beside its error.
	// Searching the output for "error" keeps the error items (n8n's search matches keys too), and
	// the table then has only their columns, none of the sent ones' left empty.
	await byTestId(output, 'ndv-search').click();
	await output.getByPlaceholder('Search output').fill('error');
	const filtered = output.locator('table').first();
	// n8n filters after a short debounce: read the columns until the sent items' are gone.
	let heads: string[] = [];
	for (
		const deadline = Date.now() + UI_TIMEOUT_MS;
		Date.now() < deadline;
		await page.waitForTimeout(250)
	) {
		heads = await filtered.locator('th').allInnerTexts();
		if (!heads.includes('sentAt')) break;
	}
	const errorRows = await filtered.locator('tbody tr').count();
	const expectedErrors = errorRowsIn(text);
	if (heads.slice(0, 3).join(',') !== 'sessionId,error,code' || errorRows !== expectedErrors)
		fail(
			`the output searched for "error": columns ${JSON.stringify(heads)}, ${errorRows} rows (expected sessionId, error, code first and ${expectedErrors} rows)`,
		);
	await shot('output-table');
	// The first Escape leaves the search (and clears it): wait for the sent items' columns again.
	await page.keyboard.press('Escape');
	for (
		const deadline = Date.now() + UI_TIMEOUT_MS;
		Date.now() < deadline;
		await page.waitForTimeout(250)
	)
		if ((await filtered.locator('th').allInnerTexts()).includes('sentAt')) break;
	await closeNode(page);
}

/** Error items in the output table's text: each error message ends with its code in brackets. */
function errorRowsIn(tableText: string): number {
	return (tableText.match(/\[[A-Z_]+\]/g) ?? []).length;
}

/** The node's icon on the canvas is the theme's own file (airsign.dark.svg in dark), and it loaded. */
async function expectThemedIcon(node: Locator, theme: Theme): Promise<void> {
	const icon = node.locator('img').first();
	await icon.waitFor();
	const { src, width } = await icon.evaluate(async (img: HTMLImageElement) => {
		if (!img.complete)
			await new Promise((resolve) => {
				img.addEventListener('load', resolve, { once: true });
				img.addEventListener('error', resolve, { once: true });
			});
		return { src: img.currentSrc || img.src, width: img.naturalWidth };
	});
	const file = theme === 'dark' ? 'airsign.dark.svg' : 'airsign.svg';
	if (!src.endsWith(file) || !(width > 0))
		fail(`the node's icon in the ${theme} theme is ${src} (${width} px wide), not ${file}`);
}
