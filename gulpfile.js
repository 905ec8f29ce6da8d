const path = require('path');
const { task, src, dest } = require('gulp');

// tsc only emits JavaScript; n8n loads each node's and credential's icon from
// the same folder as its compiled file, so the SVGs are copied beside them.
task('build:icons', copyIcons);

function copyIcons() {
	const nodeSource = path.resolve('nodes', '**', '*.{png,svg}');
	const nodeDestination = path.resolve('dist', 'nodes');
	src(nodeSource).pipe(dest(nodeDestination));

	const credSource = path.resolve('credentials', '**', '*.{png,svg}');
	const credDestination = path.resolve('dist', 'credentials');
	return src(credSource).pipe(dest(credDestination));
}
