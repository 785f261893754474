// Starts `c4lab serve` for the browser tests and the browser benchmark.
import { spawn } from 'node:child_process';

/**
 * Runs `bin serve` on `port` (0, the default unless C4LAB_TEST_PORT pins one: any free
 * port) and resolves to the server process and the URL its first line names.
 */
export function startLab(bin, port = Number(process.env.C4LAB_TEST_PORT || 0)) {
  const server = spawn(bin, ['serve', '--port', String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    server.stdout.on('data', (d) => {
      const m = /the Lab is at (http:\/\/\S+\/)/.exec(String(d));
      if (m) resolve({ server, url: m[1] });
    });
    server.on('exit', (code) => reject(new Error(`c4lab serve exited with ${code}`)));
  });
}
