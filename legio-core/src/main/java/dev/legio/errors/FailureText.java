package dev.legio.errors;

import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * What an operator reads for a failure, in one line: what failed and why, in words.
 *
 * <p>Rules:
 *
 * <ul>
 *   <li>No Java class name for a failure Legio knows how to say: an exception's own message is
 *       shown as it is ({@link ExplainedFailure}s and the rest).
 *   <li>A file-system failure says what happened to which file ({@code /proc/nope does not exist},
 *       {@code ... cannot be accessed (permission denied)}); Java's own message for it is the bare
 *       path. When a message ends with such a cause's bare path, the path is replaced by the
 *       sentence.
 *   <li>Only a failure with no message at all (a defect in Legio) is named by its simple class
 *       name: {@code an unexpected NullPointerException}.
 * </ul>
 */
public final class FailureText {
  private FailureText() {}

  /** {@code failure} as the operator reads it. */
  public static String of(Throwable failure) {
    if (failure instanceof UncheckedIOException u && u.getCause() != null) {
      return of(u.getCause());
    }
    if (failure instanceof FileSystemException f) {
      return fileProblem(f);
    }
    String message = failure.getMessage();
    if (message == null || message.isBlank()) {
      return "an unexpected " + failure.getClass().getSimpleName();
    }
    if (failure.getCause() instanceof FileSystemException f
        && f.getMessage() != null
        && !f.getMessage().isEmpty()
        && message.endsWith(f.getMessage())) {
      return message.substring(0, message.length() - f.getMessage().length()) + fileProblem(f);
    }
    return message;
  }

  private static String fileProblem(FileSystemException f) {
    String file = f.getFile() == null ? "a file" : f.getFile();
    String what =
        switch (f) {
          case NoSuchFileException n -> " does not exist";
          case AccessDeniedException a -> " cannot be accessed (permission denied)";
          case FileAlreadyExistsException x -> " already exists";
          case NotDirectoryException d -> " is not a folder";
          case DirectoryNotEmptyException d -> " is a folder that is not empty";
          default -> ": " + (f.getReason() == null ? "cannot be used" : f.getReason());
        };
    return file + what + (f.getOtherFile() == null ? "" : " (with " + f.getOtherFile() + ")");
  }
}
