package io.github.poolpilot.actuate;

import org.jspecify.annotations.Nullable;

import io.github.poolpilot.measure.PoolRecorder;
import io.github.poolpilot.pool.ManagedPool;
import io.github.poolpilot.pool.PoolBounds;
import io.github.poolpilot.pool.PoolExecutor;
import io.github.poolpilot.pool.Restarts;
import io.github.poolpilot.testsupport.SizedExecutor;

/**
 * A pool named {@code orders} whose every resize restarts its workers, as a Kafka
 * listener's, reporting the given restarts.
 *
 * @author poolpilot authors
 */
final class RestartingPool {

	private RestartingPool() {
	}

	static ManagedPool of(Restarts restarts) {
		SizedExecutor sized = new SizedExecutor(1, 0);
		PoolExecutor executor = new PoolExecutor() {

			@Override
			public int getCorePoolSize() {
				return sized.getCorePoolSize();
			}

			@Override
			public int getMaximumPoolSize() {
				return sized.getMaximumPoolSize();
			}

			@Override
			public int getPoolSize() {
				return sized.getPoolSize();
			}

			@Override
			public int getActiveCount() {
				return 0;
			}

			@Override
			public int getQueueSize() {
				return 0;
			}

			@Override
			public int getQueueCapacity() {
				return 0;
			}

			@Override
			public boolean isShutdown() {
				return false;
			}

			@Override
			public @Nullable Restarts restarts() {
				return restarts;
			}

		};
		return new ManagedPool("orders", executor, sized, PoolRecorder.builder().build(), new PoolBounds(1, 3));
	}

}
