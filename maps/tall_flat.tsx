<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="tall_flat" tilewidth="128" tileheight="192" tilecount="2" columns="2">
 <tileoffset x="-27" y="0"/>
 <image source="../assets/tiles/tall_flat.png" width="256" height="192"/>
 <tile id="0" type="water_tower">
  <properties>
   <property name="terrain" value="water tower"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="1" type="windmill">
  <properties>
   <property name="terrain" value="windmill"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
  </properties>
 </tile>
</tileset>
