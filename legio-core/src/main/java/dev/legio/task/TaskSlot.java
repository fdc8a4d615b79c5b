package dev.legio.task;

import dev.legio.backend.BackendSession;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What this process holds for one (key, agent): its turn lock (fair: tasks run in the order they
 * asked for it) and its live session with that session's record. {@code live} and {@code record}
 * are read and written only under the lock.
 */
final class TaskSlot {
  final ReentrantLock lock = new ReentrantLock(true);
  BackendSession live;
  TaskSessionRecord record;
}
