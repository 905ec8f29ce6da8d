// UI tier steps 3 and 4, against the sandbox. 3: the credential dialog, both methods tested with
// Save (which runs the Test); a wrong secret, base URL and token show their own messages (picture
// credential-dialog). 4: the example "AirSign: send every draft" run from the editor: a row for
// every draft (invitations sent, mapped errors), the node's themed icon (picture output-table).
import type { Locator, Page } from 'playwright-core';
import {
	byTestId,
	canvasNode,
	chooseOption,
	closeNode,
	fail,
	openNode,
	openWorkflow,
	UI_TIMEOUT_MS,
	type Sandbox,
	type Shot,
	type Theme,
	type DevUrls,
} from './editor.mts';

const SEND_DRAFTS_WORKFLOW = 'AirSignExSendDr1';

export async function sendEveryDraft(
	page: Page,
	dev: DevUrls,
	sandbox: Sandbox,
	theme: Theme,
	shot: Shot,
): Promise<void> {
	// a complete draft of this run's own, so that each theme's run sends something
	const fresh = await sandbox.createSession({
		name: `Contract for the ${theme} theme`,
		recipients: [{ name: 'Ann Example', email: `ann.${theme}@example.com` }],
	});
	const drafts = await sandbox.listSessions({ status: 'draft' });
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
	// The picture: the items that failed, each session beside its error. Searching for "error"
	// keeps the error items (n8n's search matches keys too) and only their columns.
	await byTestId(output, 'ndv-search').click();
	await output.getByPlaceholder('Search output').fill('error');
	const filtered = output.locator('table').first();
	// n8n filters after a debounce: the columns, read until the sent items' are gone (or back)
	const columnsOnce = async (sentShown: boolean) => {
		let heads: string[] = [];
		for (const end = Date.now() + UI_TIMEOUT_MS; Date.now() < end; await page.waitForTimeout(250))
			if ((heads = await filtered.locator('th').allInnerTexts()).includes('sentAt') === sentShown)
				break;
		return heads;
	};
	const heads = await columnsOnce(false);
	const errorRows = await filtered.locator('tbody tr').count();
	const expectedErrors = errorRowsIn(text);
	if (heads.slice(0, 3).join(',') !== 'sessionId,error,code' || errorRows !== expectedErrors)
		fail(
			`the output searched for "error": columns ${JSON.stringify(heads)}, ${errorRows} rows (expected sessionId, error, code first and ${expectedErrors} rows)`,
		);
	await shot('output-table');
	// the first Escape leaves the search (and clears it)
	await page.keyboard.press('Escape');
	await columnsOnce(true);
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

// Each Test makes one List Sessions request: a handful per theme, well within the sandbox's 60 an hour.
const WRONG_SECRET = 'AirSign rejected the client ID or client secret';
const WRONG_BASE_URL = 'No AirSign token endpoint at';
const WRONG_TOKEN = 'AirSign rejected the access token';
const TESTED_OK = 'Connection tested successfully';
const COULD_NOT_CONNECT = 'Couldn’t connect with these settings';

export async function credentialDialog(
	page: Page,
	dev: DevUrls,
	sandbox: Sandbox,
	shot: Shot,
): Promise<void> {
	await page.goto(`${dev.n8nUrl}/home/credentials/create`);
	const dialog = await openNewCredential(page);
	const field = (name: string) =>
		byTestId(dialog, `parameter-input-${name}`).locator('input, textarea').first();
	// every failure follows a success: the banner waited for is the new test's
	const saveAndExpect = async (text: string) => {
		// in the modal's header; the button shows once n8n has taken the edit ("Saved" ignores clicks)
		await byTestId(page, 'credential-save-button').locator('button').click();
		if (text === TESTED_OK) {
			await byTestId(page, 'credentials-config-container-test-success').getByText(text).waitFor();
			return;
		}
		await page.getByText(COULD_NOT_CONNECT).first().waitFor();
		await page.getByText('More details').first().click();
		await page.getByText(text).first().waitFor();
	};

	// Client credentials (the default method)
	await field('baseUrl').fill(dev.sandboxUrl);
	await field('clientId').fill('demo-client');
	await field('clientSecret').fill('not-the-secret');
	await saveAndExpect(WRONG_SECRET);
	await field('clientSecret').fill('demo-secret');
	await saveAndExpect(TESTED_OK);
	await shot('credential-dialog');
	await field('baseUrl').fill(`${dev.sandboxUrl}/not-airsign`);
	await saveAndExpect(WRONG_BASE_URL);

	// Access token
	await field('baseUrl').fill(dev.sandboxUrl);
	await chooseOption(page, 'authentication', 'Access Token', dialog);
	const { access_token: token }: { access_token: string } = await sandbox.token();
	await field('accessToken').fill(token);
	await saveAndExpect(TESTED_OK);
	await field('accessToken').fill('not-a-token');
	await saveAndExpect(WRONG_TOKEN);
	await page.keyboard.press('Escape');
	await dialog.waitFor({ state: 'hidden' });
}

async function openNewCredential(page: Page): Promise<Locator> {
	await page.getByPlaceholder('Search for app...').fill('AirSign');
	await page.getByRole('option').filter({ hasText: 'AirSign API' }).first().click();
	await page.getByRole('button', { name: 'Continue' }).click();
	const dialog = byTestId(page, 'credential-edit-dialog');
	await dialog.waitFor();
	return dialog;
}
