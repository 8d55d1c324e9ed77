package io.github.poolpilot.sample.testsupport;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Where a test finds a real PostgreSQL: a Testcontainers container when a Docker engine
 * runs, otherwise the local server on 127.0.0.1:5432 (trust authentication, user
 * {@code postgres}), in a database of its own that is dropped afterwards. With neither,
 * the test is skipped with a message, unless the environment variable {@code CI} is
 * {@code true}: then it fails, so that CI never passes without having run it.
 * <p>
 * A test class uses it with {@code @ExtendWith(RealPostgres.class)} (the decision) and
 * {@code @Import(RealPostgres.Database.class)} (the connection).
 *
 * @author poolpilot authors
 */
public final class RealPostgres implements ExecutionCondition {

	static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/";

	static final String LOCAL_USER = "postgres";

	private static volatile Choice choice;

	/**
	 * Where the database comes from, or why there is none.
	 */
	public enum Choice {

		/**
		 * A PostgreSQL container started by Testcontainers.
		 */
		TESTCONTAINERS,

		/**
		 * The local server on 127.0.0.1:5432.
		 */
		LOCAL,

		/**
		 * None, outside CI: skip the test.
		 */
		SKIP,

		/**
		 * None, on CI: fail the test.
		 */
		FAIL

	}

	/**
	 * The decision table: Docker first, then the local server; without either, skip
	 * outside CI and fail on CI.
	 * @param dockerAvailable whether a Docker engine answers
	 * @param localPostgresAvailable whether the local server accepts a connection
	 * @param ci whether the environment variable {@code CI} is {@code true}
	 * @return the choice
	 */
	static Choice choose(boolean dockerAvailable, boolean localPostgresAvailable, boolean ci) {
		if (dockerAvailable) {
			return Choice.TESTCONTAINERS;
		}
		if (localPostgresAvailable) {
			return Choice.LOCAL;
		}
		return ci ? Choice.FAIL : Choice.SKIP;
	}

	/**
	 * Return the choice for this machine, made once per test run.
	 * @return the choice
	 */
	public static Choice choice() {
		Choice choice = RealPostgres.choice;
		if (choice == null) {
			synchronized (RealPostgres.class) {
				choice = RealPostgres.choice;
				if (choice == null) {
					choice = choose(dockerAvailable(), localPostgresAvailable(), isCi(System.getenv("CI")));
					RealPostgres.choice = choice;
				}
			}
		}
		return choice;
	}

	static boolean isCi(String ci) {
		return "true".equalsIgnoreCase(ci);
	}

	private static boolean dockerAvailable() {
		try {
			return DockerClientFactory.instance().isDockerAvailable();
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	private static boolean localPostgresAvailable() {
		try (Connection connection = DriverManager.getConnection(LOCAL_URL + "test?connectTimeout=2&socketTimeout=5",
				LOCAL_USER, "")) {
			return connection.isValid(2);
		}
		catch (SQLException ex) {
			return false;
		}
	}

	@Override
	public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
		ConditionEvaluationResult result = evaluate(choice());
		// Said here, for a test really skipped, and not by evaluate, which tests call.
		if (result.isDisabled()) {
			System.err.println("WARNING " + context.getDisplayName() + ": " + result.getReason().orElse(""));
		}
		return result;
	}

	static ConditionEvaluationResult evaluate(Choice choice) {
		String none = "no Docker engine for Testcontainers and no PostgreSQL on 127.0.0.1:5432";
		if (choice == Choice.FAIL) {
			throw new IllegalStateException("CI=true but there is " + none + ": this test needs a real PostgreSQL");
		}
		if (choice == Choice.SKIP) {
			return ConditionEvaluationResult.disabled("Skipped: " + none + " (with CI=true this fails instead)");
		}
		return ConditionEvaluationResult.enabled("PostgreSQL from " + choice);
	}

	/**
	 * The connection to the chosen PostgreSQL.
	 */
	@TestConfiguration(proxyBeanMethods = false)
	public static class Database {

		@Bean
		@ServiceConnection
		@Conditional(OnTestcontainers.class)
		PostgreSQLContainer postgresContainer() {
			return new PostgreSQLContainer(DockerImageName.parse("postgres:17-alpine"));
		}

		@Bean(destroyMethod = "drop")
		@Conditional(OnLocalPostgres.class)
		LocalDatabase localPostgresDatabase() {
			return LocalDatabase.create();
		}

	}

	static class OnTestcontainers implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return choice() == Choice.TESTCONTAINERS;
		}

	}

	static class OnLocalPostgres implements Condition {

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			return choice() == Choice.LOCAL;
		}

	}

	/**
	 * A database of its own on the local server, as fresh as a container's, so that tests
	 * running at the same time on the same server do not see each other's rows.
	 */
	static final class LocalDatabase implements JdbcConnectionDetails {

		private final String name;

		private LocalDatabase(String name) {
			this.name = name;
		}

		static LocalDatabase create() {
			String name = "poolpilot_sample_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
			execute("CREATE DATABASE " + name);
			return new LocalDatabase(name);
		}

		void drop() {
			execute("DROP DATABASE IF EXISTS " + this.name + " WITH (FORCE)");
		}

		private static void execute(String sql) {
			try (Connection connection = DriverManager.getConnection(LOCAL_URL + "test", LOCAL_USER, "");
					Statement statement = connection.createStatement()) {
				statement.execute(sql);
			}
			catch (SQLException ex) {
				throw new IllegalStateException("Could not run '" + sql + "' on the local PostgreSQL", ex);
			}
		}

		@Override
		public String getUsername() {
			return LOCAL_USER;
		}

		@Override
		public String getPassword() {
			return "";
		}

		@Override
		public String getJdbcUrl() {
			return LOCAL_URL + this.name;
		}

	}

}
