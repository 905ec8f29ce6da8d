// UI tier step 3: the credential dialog. Both methods tested against the sandbox with Save (which
// runs the Test); a wrong secret, base URL and token show their own messages. Picture: credential-dialog.
import type { Locator, Page } from 'playwright-core';
import { byTestId, chooseOption, type Sandbox, type Shot, type DevUrls } from './editor.mts';

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
