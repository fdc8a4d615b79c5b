package dev.legio.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LegioCommandLineTest {
  @Test
  void aChildTakesNoAttachWhenThisProcessTakesNone() {
    List<String> closed = LegioCommandLine.command("/jdk/bin/java", "/a.jar", true, true);
    List<String> open = LegioCommandLine.command("/jdk/bin/java", "/a.jar", true, false);

    assertThat(closed).contains("-XX:+DisableAttachMechanism");
    assertThat(open).doesNotContain("-XX:+DisableAttachMechanism");
    // The JVM's flags come before the main class; what follows it is legio's arguments.
    assertThat(closed.indexOf("-XX:+DisableAttachMechanism"))
        .isLessThan(closed.indexOf(LegioCommandLine.MAIN_CLASS));
    assertThat(closed).endsWith("-cp", "/a.jar", LegioCommandLine.MAIN_CLASS);
  }

  @Test
  void aJvmThatIsNotHotSpotGetsNoneOfHotSpotsFlags() {
    List<String> command = LegioCommandLine.command("/j9/bin/java", "/a.jar", false, true);

    assertThat(command)
        .containsExactly(
            "/j9/bin/java",
            "--enable-native-access=ALL-UNNAMED",
            "-cp",
            "/a.jar",
            LegioCommandLine.MAIN_CLASS);
    assertThat(LegioCommandLine.isHotSpot("OpenJDK 64-Bit Server VM")).isTrue();
    assertThat(LegioCommandLine.isHotSpot("Java HotSpot(TM) 64-Bit Server VM")).isTrue();
    assertThat(LegioCommandLine.isHotSpot("Eclipse OpenJ9 VM")).isFalse();
  }
}
