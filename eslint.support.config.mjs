// ESLint for the code around the package (tests, sandbox, bench, scripts): typescript-eslint's
// recommended rules. The package's own eslint.config.mjs stays n8n's default, so cloud support
// stays eligible.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(js.configs.recommended, ...tseslint.configs.recommended, {
	languageOptions: { globals: globals.node },
	rules: {
		// `_name` marks a parameter or binding kept for its position.
		'@typescript-eslint/no-unused-vars': [
			'error',
			{ argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
		],
	},
});
