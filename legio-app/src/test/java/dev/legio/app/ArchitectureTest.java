package dev.legio.app;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every import points downhill: the build fails when a package imports one above it or when two
 * packages import each other, directly or around a loop.
 *
 * <p>The layers, lowest first (a layer may use any layer below it and its own):
 *
 * <ol>
 *   <li><b>Foundation</b>: {@code files} (atomic write, file locks), {@code secrets} (redaction),
 *       {@code tools} (the tool seam), {@code workspace}, {@code pricing} (models' prices, the
 *       defaults of {@code [pricing]}), {@code config}, {@code text} (strict UTF-8): they know
 *       nothing of the rest of Legio.
 *   <li><b>Log</b>: {@code log}, the praetorium.
 *   <li><b>Agents</b>: {@code agents}, the prompt files and the roster.
 *   <li><b>Back-ends</b>: {@code backend} and its vendors.
 *   <li><b>Sessions</b>: {@code session}, the engine and its rules.
 *   <li><b>Features over sessions</b>: {@code transcript}, {@code memoria}, {@code longterm},
 *       {@code usage}, {@code delivery}, {@code task} (keyed task sessions), {@code mcp}: they hook
 *       into the engine through its listener interfaces; the engine never imports them.
 *   <li><b>Store</b>: {@code store}, one opened database giving every store.
 *   <li><b>Application</b>: {@code dev.legio.app} and below, with the composition root {@code
 *       LegioApp}.
 * </ol>
 */
class ArchitectureTest {
  private static JavaClasses legio;

  @BeforeAll
  static void importClasses() {
    legio =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // legio-core's test classes come as its test-jar, which the predefined option misses
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.legio");
  }

  @Test
  void theCompositionRootNamesTheJarsMainClass() throws Exception {
    // LegioApp names the main class (for the MCP command line) instead of importing it.
    assertThat(Class.forName(LegioCommandLine.MAIN_CLASS)).isEqualTo(dev.legio.app.cli.Main.class);
  }

  @Test
  void noPackageCycles() {
    slices().matching("dev.legio.(**)").should().beFreeOfCycles().check(legio);
  }

  @Test
  void everyImportPointsDownhill() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Foundation")
        .definedBy(
            "dev.legio.files..",
            "dev.legio.secrets..",
            "dev.legio.tools..",
            "dev.legio.workspace..",
            "dev.legio.pricing..",
            "dev.legio.config..",
            "dev.legio.text..")
        .layer("Log")
        .definedBy("dev.legio.log..")
        .layer("Agents")
        .definedBy("dev.legio.agents..")
        .layer("Backends")
        .definedBy("dev.legio.backend..")
        .layer("Sessions")
        .definedBy("dev.legio.session..")
        .layer("Features")
        .definedBy(
            "dev.legio.transcript..",
            "dev.legio.memoria..",
            "dev.legio.longterm..",
            "dev.legio.usage..",
            "dev.legio.delivery..",
            "dev.legio.task..",
            "dev.legio.mcp..")
        .layer("Store")
        .definedBy("dev.legio.store..")
        .layer("Application")
        .definedBy("dev.legio.app..")
        .whereLayer("Application")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Store")
        .mayOnlyBeAccessedByLayers("Application")
        .whereLayer("Features")
        .mayOnlyBeAccessedByLayers("Store", "Application")
        .whereLayer("Sessions")
        .mayOnlyBeAccessedByLayers("Features", "Store", "Application")
        .whereLayer("Backends")
        .mayOnlyBeAccessedByLayers("Sessions", "Features", "Store", "Application")
        .whereLayer("Agents")
        .mayOnlyBeAccessedByLayers("Backends", "Sessions", "Features", "Store", "Application")
        .whereLayer("Log")
        .mayOnlyBeAccessedByLayers(
            "Agents", "Backends", "Sessions", "Features", "Store", "Application")
        .check(legio);
  }
}
