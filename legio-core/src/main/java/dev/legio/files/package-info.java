/**
 * The file-system toolkit every file store of Legio shares (memoria, long-term memory,
 * transcripts): {@link dev.legio.files.AtomicFile} replaces a file whole (temporary file, forced to
 * disk, atomic rename), {@link dev.legio.files.LockFile} serialises writers between the threads of
 * this JVM and between processes, {@link dev.legio.files.FolderLock} is that lock for a whole
 * folder, {@link dev.legio.files.OwnerOnly} creates private files and folders only their owner may
 * read, {@link dev.legio.files.FolderSync} forces a folder's entries (a new file's) to disk. It
 * depends on nothing of Legio, so every package may use it.
 */
package dev.legio.files;
