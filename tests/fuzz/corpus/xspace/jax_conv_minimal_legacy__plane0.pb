
/host:metadata"(chi-mi300x-013.ord.vultr.cpe.ice.amd.com