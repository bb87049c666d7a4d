
ð/device:GPU:1*
clock_rate*memory_size*compute_cap_minor*device_vendor*memory_bandwidth*
core_count*compute_cap_major2*AMD2  –€2 °2	€€ ›¾M2	€€€øÿ2 	2 "(chi-mi300x-013.ord.vultr.cpe.ice.amd.com