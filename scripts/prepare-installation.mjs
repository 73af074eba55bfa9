// The package's postinstall, and the last step of `npm run build`: builds the C++ host and the sandbox's native
// tools into the installation's prebuilt/ folder (dist/harness/sandbox/prepare-installation.js says how), so the
// first `referee check` compiles only the student's code. Plain JavaScript, as it runs before anything is built in a
// fresh clone (then there is nothing to do yet). It never fails an install: each problem is one line, exit 0.
const quiet = process.argv.includes('--quiet');
try {
  const { prepareInstallation } = await import('../dist/harness/sandbox/prepare-installation.js');
  for (const line of prepareInstallation()) if (!quiet) console.log(`referee: ${line}`);
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') console.log(`referee: nothing built ahead (${String(error?.message ?? error).split('\n')[0]}); the first check builds what it needs`);
}
