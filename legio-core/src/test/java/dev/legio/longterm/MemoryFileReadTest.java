package dev.legio.longterm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MemoryFileReadTest {
  @TempDir Path root;

  @Test
  void aPlainFileIsReadAndAMissingOneIsMissing() throws Exception {
    Files.writeString(root.resolve("roads.md"), "The via Appia.");
    assertThat(MemoryFileRead.of(root, "roads.md"))
        .isEqualTo(new MemoryFileRead.Text("The via Appia."));
    assertThat(MemoryFileRead.of(root, "none.md")).isEqualTo(new MemoryFileRead.Missing());
  }

  @Test
  void aSymbolicLinkIsRefusedWhereverItPointsAndItsTargetIsNotRead() throws Exception {
    Path secret = root.resolve("secret");
    Files.writeString(secret, "THE-SECRET-KEY");
    Path folder = Files.createDirectories(root.resolve("vorenus"));
    Files.writeString(folder.resolve("roads.md"), "roads");
    Files.createSymbolicLink(folder.resolve("leak.md"), secret);
    Files.createSymbolicLink(folder.resolve("twin.md"), folder.resolve("roads.md"));
    Files.createSymbolicLink(folder.resolve("dangling.md"), root.resolve("nowhere"));

    for (String name : new String[] {"leak.md", "twin.md", "dangling.md"}) {
      var read = MemoryFileRead.of(folder, name);
      assertThat(read).as(name).isInstanceOf(MemoryFileRead.Refused.class);
      assertThat(((MemoryFileRead.Refused) read).reason())
          .contains(folder.resolve(name).toString(), "is a symbolic link")
          .doesNotContain("THE-SECRET-KEY");
    }
    assertThat(MemoryFileRead.of(folder.resolve("leak.md")))
        .isInstanceOf(MemoryFileRead.Refused.class);
  }

  @Test
  void namesThatLeaveTheFolderAndFoldersAreRefused() throws Exception {
    Path folder = Files.createDirectories(root.resolve("vorenus"));
    Files.writeString(root.resolve("outside.md"), "outside");
    Files.createDirectories(folder.resolve("sub.md"));
    assertThat(MemoryFileRead.of(folder, "../outside.md"))
        .isInstanceOf(MemoryFileRead.Refused.class);
    assertThat(MemoryFileRead.of(folder, "sub.md")).isInstanceOf(MemoryFileRead.Refused.class);
  }

  @Test
  void aFileThatIsNotUtf8IsReadWithReplacementCharactersAndAReasonNamingItsLine() throws Exception {
    Files.write(
        root.resolve("bad.md"),
        new byte[] {'a', '\n', 'b', '\n', 'c', 'a', 'f', (byte) 0xE9, '\n'});
    assertThat(MemoryFileRead.of(root, "bad.md"))
        .isEqualTo(
            new MemoryFileRead.NotUtf8(
                "a\nb\ncaf\uFFFD\n",
                root.resolve("bad.md")
                    + " is not valid UTF-8 (line 3 holds a byte that is not; saved as Latin-1?):"
                    + " save it as UTF-8"));
  }

  @Test
  void aByteOrderMarkIsKeptAndAnEncodedSurrogateOnLineTwoIsNotUtf8() throws Exception {
    Files.write(root.resolve("bom.md"), new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'a'});
    assertThat(MemoryFileRead.of(root, "bom.md")).isEqualTo(new MemoryFileRead.Text("\uFEFFa"));
    // CESU-8 (an emoji as two encoded surrogates) is not read as the emoji.
    Files.write(
        root.resolve("cesu.md"),
        new byte[] {
          'a', '\n', (byte) 0xED, (byte) 0xA0, (byte) 0xBD, (byte) 0xED, (byte) 0xB8, (byte) 0x80
        });
    assertThat(MemoryFileRead.of(root, "cesu.md"))
        .isInstanceOfSatisfying(
            MemoryFileRead.NotUtf8.class,
            n -> assertThat(n.reason()).contains("line 2 holds a byte that is not"));
  }
}
