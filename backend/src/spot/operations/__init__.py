"""Running Spot: health for load balancers, metrics for Prometheus (docs/operations.md)."""
