/**
 * Signalling a spawned server together with everything it started. On POSIX the server is
 * spawned as the leader of its own process group, so one signal to the group reaches its
 * children too; Windows has no groups, so `taskkill /T` walks the process tree instead.
 */
/** Signals that stop a server: a polite request, then the one that cannot be ignored. */
export type StopSignal = 'SIGTERM' | 'SIGKILL';

/**
 * Sends `signal` to the process group led by `pid`. A group that no longer exists is not an
 * error (the processes are already gone).
 */
export function signalProcessGroup(pid: number, signal: StopSignal): void {
  if (process.platform === 'win32') {
    // Console programs ignore taskkill's polite WM_CLOSE, so both steps force (/F), as Node's
    // own `kill()` does on Windows; /T takes the children along.
    // Loaded here, on Windows alone: no other program pays for `node:child_process` at import.
    void import('node:child_process').then(({ spawn }) => {
      const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], {
        stdio: 'ignore',
        windowsHide: true,
      });
      killer.on('error', () => {
        // taskkill missing or refused: the direct child is still killed by the caller's fallback.
      });
    });
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
